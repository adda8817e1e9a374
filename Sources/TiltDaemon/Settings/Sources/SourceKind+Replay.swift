import TiltSensors

extension DaemonOptions.SourceKind {
    /// A sensor log replayed (`replay`, with its `speed` and `loop`).
    static let replay = Self(
        reads: "a log",
        settings: [
            .init(
                "replay", \.replay, flag: .value("replay", valueName: "FILE"), section: .sensor,
                accepts: .path("a sensor log path (.csv or .csv.gz)"), default: "none (read IIO)",
                sample: "/var/lib/tilt/demo.csv.gz",
                help: "Replay this sensor log (.csv or .csv.gz) instead of reading IIO.",
                choice: DaemonOptions.sourceChoice),
            .init(
                "speed", \.speed, flag: .value("speed", valueName: "X"), section: .sensor,
                accepts: .positive("a positive number (1 is real time)"),
                default: DaemonOptions.plain(LogReplaySource.Configuration(path: "").speed),
                help: "Replay speed: 1 is real time."),
            .init(
                "loop", \.loop, flag: .toggle("loop"), section: .sensor, accepts: .boolean(), default: "false",
                help: "Start the replay over at the end of the log."),
        ]
    ) { options in
        var configuration = LogReplaySource.Configuration(
            path: options.replay ?? "", useMagnetometer: !(options.noMag ?? false))
        if let speed = options.speed { configuration.speed = speed }
        if let loop = options.loop { configuration.loop = loop }
        return configuration
    }
}
