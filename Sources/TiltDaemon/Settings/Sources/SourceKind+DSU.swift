import TiltDSU
import TiltSensors

extension DaemonOptions.SourceKind {
    /// A DSU (cemuhook) server's slot (`dsu`): a phone app, a controller tool, another tiltd.
    static let dsu = Self(
        reads: "a DSU server",
        settings: [
            .init(
                "dsu", \.dsu, flag: .value("dsu", valueName: "HOST[:PORT][/SLOT]"), section: .dsu,
                accepts: .dsu(
                    "HOST[:PORT][/SLOT] (port 1 to 65535, slot 0 to 3), e.g. 192.168.1.5:26760/0", allowsSlot: true),
                default: "none (read IIO)", sample: "192.168.1.5:26760/0",
                help: "Read motion from a DSU (cemuhook) server instead of IIO: a phone app, a controller tool, "
                    + "another tiltd; port \(DSUPacket.defaultPort) and the first connected slot unless given.",
                note: "A server that goes quiet is a lost sensor until it sends again (docs/dsu.md).",
                choice: DaemonOptions.sourceChoice)
        ]
    ) { options in
        DSUMotionSource.Configuration(endpoint: options.dsu ?? DSUEndpoint(host: ""))
    }
}
