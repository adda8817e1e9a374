import NIOCore
import TiltCore
import TiltWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension TiltClientError {
    /// A failure of the connection to tiltd at `path` after it was made, said in the user's words.
    ///
    /// NIO describes its errors by the system call that failed (`read(descriptor:pointer:size:) … (errno: 104)`),
    /// which tells a user nothing; this keeps the system's reason and the socket, and drops the call.
    public static func connection(to path: String, failedWith error: any Error) -> TiltClientError {
        switch error {
        case let error as TiltClientError:
            return error
        case let error as IOError:
            let reason = String(cString: strerror(error.errnoCode))
            if error.errnoCode == ECONNRESET || error.errnoCode == EPIPE {
                return TiltClientError(.connectionClosed, "tiltd at \(path) closed the connection (\(reason))")
            }
            return TiltClientError(
                .unusableSocket, "the connection to tiltd at \(path) failed (\(reason)); try again")
        case let error as WireError:
            return TiltClientError(
                .unusableSocket,
                "tiltd at \(path) sent what this client cannot read (\(error)); is it the same version?")
        case is ChannelError:
            return TiltClientError(.connectionClosed, "tiltd at \(path) closed the connection")
        default:
            return TiltClientError(
                .unusableSocket, "the connection to tiltd at \(path) failed unexpectedly; try again")
        }
    }
}
