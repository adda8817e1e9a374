extension DaemonOptions {
    /// The settings table of `dist/README.md`, made from ``settings`` (`tiltd --print-config-table` prints it; a test
    /// checks the committed copy is equal).
    package static func markdownTable() -> String {
        var lines = ["| key | flag | default | accepts | meaning |", "|---|---|---|---|---|"]
        for setting in settings {
            let cells = [
                "`\(setting.key)`", setting.flag.spelling, setting.defaultValue, setting.expects, setting.help,
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `dist/tiltd.conf`: every setting commented out at its default (or at an example, when the default is not a
    /// value), under its section, made from ``settings`` (`tiltd --print-sample-config` prints it).
    package static func sampleConfig() -> String {
        var lines = sampleHeader
        for section in Setting.Section.allCases {
            lines += ["", "[\(section.rawValue)]"]
            for setting in settings where setting.section == section {
                var comment = setting.help
                if let note = setting.note { comment += " " + note }
                let value = setting.sample ?? setting.defaultValue
                if setting.sample != nil { comment += " Default: \(setting.defaultValue)." }
                lines += wrapped(comment, width: 120, prefix: "# ")
                lines.append("#\(setting.key) = \(value)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static let sampleHeader = [
        "# tiltd.conf — settings for the tilt sensor daemon (made by `tiltd --print-sample-config`).",
        "#",
        "# Format: one `key = value` per line; `#` starts a comment; a value may be quoted (\"…\") to keep spaces or '#'.",
        "# [sections] only group keys for people: a key means the same in any section. Every key is optional; the value",
        "# shown commented out is the default. Command-line flags (--max-clients, --admin-group, …) override this file.",
        "# Validate with `tiltd --config /etc/tiltd/tiltd.conf --check`; apply changes with `systemctl reload tiltd`",
        "# (SIGHUP): limits, groups, log level and calibration change without dropping clients; the rest needs a restart.",
    ]

    /// `text` as lines of at most `width` characters, each starting with `prefix`, broken between words.
    private static func wrapped(_ text: String, width: Int, prefix: String) -> [String] {
        var lines: [String] = []
        var line = prefix
        for word in text.split(separator: " ") {
            if line.count > prefix.count, line.count + 1 + word.count > width {
                lines.append(line)
                line = prefix
            }
            line += (line.count > prefix.count ? " " : "") + word
        }
        lines.append(line)
        return lines
    }
}
