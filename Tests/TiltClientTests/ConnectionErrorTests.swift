import NIOCore
import Testing
import TiltClient
import TiltCore
import TiltWire

#if canImport(Glibc)
    import Glibc
#endif

/// A connection to tiltd that fails after it was made is said in words: the system's reason and the socket, never
/// NIO's system-call names or errno numbers.
@Suite
struct ConnectionErrorTests {
    static let path = "/run/user/1000/tiltd.sock"

    @Test func aResetConnectionSaysTheDaemonClosedIt() {
        let error = TiltClientError.connection(
            to: Self.path, failedWith: IOError(errnoCode: ECONNRESET, reason: "read(descriptor:pointer:size:)"))
        #expect(error.kind == .connectionClosed)
        #expect(error.message.hasPrefix("tiltd at \(Self.path) closed the connection ("), "\(error)")
        for leak in ["descriptor", "errno", "read("] { #expect(!error.message.contains(leak), "\(error)") }
    }

    @Test func anotherSystemFailureKeepsOnlyItsReason() {
        let error = TiltClientError.connection(
            to: Self.path, failedWith: IOError(errnoCode: EIO, reason: "write(descriptor:pointer:size:)"))
        #expect(error.kind == .unusableSocket)
        #expect(error.message.contains(String(cString: strerror(EIO))), "\(error)")
        for leak in ["descriptor", "errno", "write("] { #expect(!error.message.contains(leak), "\(error)") }
    }

    @Test func channelAndUnknownErrorsNameNoInternals() {
        let closed = TiltClientError.connection(to: Self.path, failedWith: ChannelError.ioOnClosedChannel)
        #expect(closed.kind == .connectionClosed && closed.message == "tiltd at \(Self.path) closed the connection")
        struct Internal: Error {}
        let other = TiltClientError.connection(to: Self.path, failedWith: Internal())
        #expect(!other.message.contains("Internal"), "\(other)")
    }

    @Test func clientAndWireErrorsKeepTheirMessage() {
        let refused = TiltClientError(.refused, "tiltd answered: no")
        #expect(TiltClientError.connection(to: Self.path, failedWith: refused) == refused)
        let wire = TiltClientError.connection(to: Self.path, failedWith: WireError(.lineTooLong, "line too long"))
        #expect(wire.message.contains("line too long"), "\(wire)")
    }
}
