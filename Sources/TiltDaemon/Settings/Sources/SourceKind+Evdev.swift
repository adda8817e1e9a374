import TiltEvdev

extension DaemonOptions.SourceKind {
    /// An evdev motion sensor (`evdev`): a game controller's, lis3lv02d's.
    static let evdev = Self(
        reads: "a live motion sensor",
        settings: [
            .init(
                "evdev", \.evdev, flag: .value("evdev", valueName: "PATH"), section: .sensor,
                accepts: .path("an event node such as /dev/input/event7, or auto"), default: "none (read IIO)",
                sample: DaemonOptions.evdevAuto,
                help: "Read an evdev motion sensor (a game controller's, lis3lv02d's) instead of IIO: this event node, "
                    + "or \(DaemonOptions.evdevAuto) (also --evdev alone) for the first one found.",
                note: "`tilt sensors` lists them; the node needs read access (the input group or a udev rule).",
                choice: DaemonOptions.sourceChoice, bare: DaemonOptions.evdevAuto)
        ]
    ) { options in
        EvdevMotionSource.Configuration(path: options.evdev == DaemonOptions.evdevAuto ? nil : options.evdev)
    }
}

extension DaemonOptions {
    /// The `evdev` value that picks the first motion sensor found.
    package static let evdevAuto = "auto"
}
