import NIOCore
import TiltWire

extension ClientCommand {
    /// The command as it goes on the wire, framed by ``WireLine`` (its JSON line and the newline that ends it), as
    /// plain bytes for code that writes to a file descriptor itself.
    ///
    /// Encode once and reuse where the same command goes to many connections (`tilt bench daemon`).
    public var lineBytes: [UInt8] {
        Array(WireLine(self).bytes.readableBytesView)
    }
}
