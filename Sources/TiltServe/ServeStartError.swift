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
package struct ServeStartError: Error, CustomStringConvertible {
    /// The system error the listening socket failed with (`EADDRINUSE`, `EACCES`, …), or `nil` when it was not one.
    package let errno: Int32?
    /// The system's words for it.
    package let description: String

    init(_ error: any Error) {
        if let error = error as? IOError {
            errno = error.errnoCode
            description = String(cString: strerror(error.errnoCode))
        } else {
            errno = nil
            description = "\(error)"
        }
    }
}
