import TiltSensors

extension DaemonOptions {
    /// One kind of motion source `tiltd` can read, described once: the settings that name it (listed in the settings
    /// table), what it reads (for messages), and how those settings become the source's configuration.
    ///
    /// What is particular to a kind once it is chosen (how it opens, its error, its `--check` line, its calibration
    /// and speed) is its ``MotionSourceConfiguration`` and its ``MotionSource``, in its own module. A new kind is that
    /// module, a file here, and one line in ``sourceKinds``.
    package struct SourceKind: Sendable {
        /// The setting that picks this kind (`replay`); it is one of ``settings``, in the source choice.
        package let key: String
        /// What it reads, for the message when two sources are given: `a log`.
        package let reads: String
        /// Its settings, in the order of the settings table: the one that picks it first.
        package let settings: [Setting]
        /// Its configuration from the options; called only when ``key`` is given, or for the default kind.
        let configure: @Sendable (DaemonOptions) -> any MotionSourceConfiguration

        init(
            reads: String, settings: [Setting],
            configure: @escaping @Sendable (DaemonOptions) -> any MotionSourceConfiguration
        ) {
            precondition(settings.first?.choice == sourceChoice, "a source kind's first setting picks it")
            self.key = settings[0].key
            self.reads = reads
            self.settings = settings
            self.configure = configure
        }
    }

    /// Every kind of motion source, in the settings table's order. At most one is given; with none, the first of
    /// them whose key is ``defaultSourceKey`` reads this machine's sensors.
    package static let sourceKinds: [SourceKind] = [.replay, .iio, .evdev, .dsu]

    /// The kind read when no source setting is given: IIO at ``defaultIIOURI``.
    static let defaultSourceKey = "uri"

    /// The choice the motion sources make together: one of them, or the default.
    static let sourceChoice = "source"

    /// The source these options name: the kind whose setting is given, else the default kind.
    var sourceConfiguration: any MotionSourceConfiguration {
        let kind =
            Self.sourceKinds.first { $0.settings[0].isGiven(self) }
            ?? Self.sourceKinds.first { $0.key == Self.defaultSourceKey }!
        return kind.configure(self)
    }
}
