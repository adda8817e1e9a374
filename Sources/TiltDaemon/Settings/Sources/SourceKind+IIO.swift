import TiltIIO

extension DaemonOptions.SourceKind {
    /// IIO sensors through libiio (`uri`): this machine's, unless another source is given.
    static let iio = Self(
        reads: "IIO sensors",
        settings: [
            .init(
                "uri", \.uri, flag: .value("uri", valueName: "URI"), section: .sensor,
                accepts: .name("a libiio context URI such as local: or ip:HOST"),
                default: DaemonOptions.defaultIIOURI, help: "libiio context URI for live sensors: local: or ip:HOST.",
                choice: DaemonOptions.sourceChoice)
        ]
    ) { options in
        IIOMotionSource.Configuration(uri: options.uri ?? DaemonOptions.defaultIIOURI)
    }
}
