import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why `tiltfx serve` could not listen, in the system's words.
///
/// NIO names the system call that failed (`bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)`); a
/// user needs only the reason.
public struct ServeStartError: Error, CustomStringConvertible {
    public let description: String

    init(_ error: any Error) {
        if let error = error as? IOError {
            description = String(cString: strerror(error.errnoCode))
        } else {
            description = "\(error)"
        }
    }
}
