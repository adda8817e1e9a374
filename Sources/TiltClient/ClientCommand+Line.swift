import TiltWire

extension ClientCommand {
    /// The command as it goes on the wire: its JSON line and the newline that ends it.
    ///
    /// Encode once and reuse where the same command goes to many connections (`tilt bench daemon`).
    public var lineBytes: [UInt8] {
        Array(jsonLine.utf8) + [UInt8(ascii: "\n")]
    }
}
