import TiltCore

extension DaemonOptions {
    /// One `tiltd` setting, described once: its config key, its flag, what it expects, its default and its help.
    ///
    /// The table of these (``DaemonOptions/settings``) drives everything that used to list the settings by hand: the
    /// config-file parser, the flags (`tiltd` declares one property per flag and takes its help from here), the flag
    /// overlay, the error messages, `tiltd --help`, and the documented table and sample file in `dist/`
    /// (``DaemonOptions/markdownTable()``, ``DaemonOptions/sampleConfig()``). Adding a setting is one entry there,
    /// one field of ``DaemonOptions``, one property in `tiltd` and its use in ``DaemonOptions/makeConfiguration()``.
    package struct Setting: Sendable {
        /// The part of `tiltd.conf` a setting is listed under (sections only group keys for people).
        package enum Section: String, Sendable, CaseIterable {
            case socket, security, limits, logging, sensor, calibration, power, dsu
        }

        /// How the command line gives a setting.
        package enum Flag: Sendable, Equatable {
            /// `--NAME VALUE`.
            case value(String, valueName: String)
            /// `--NAME VALUE`, repeatable; each flag is one item of the list (the file separates them with `:`).
            case repeatable(String, valueName: String)
            /// `--NAME` sets it true, `--no-NAME` false.
            case toggle(String)
            /// `--no-NAME` sets it true, `--NAME` false (the key itself is `no_NAME`).
            case inverseToggle(String)
            /// `--NAME` sets it true.
            case presence(String)

            /// The flag's name as `tiltd` declares it, without dashes (`max-clients`, `mag`).
            package var name: String {
                switch self {
                case .value(let name, _), .repeatable(let name, _), .toggle(let name), .inverseToggle(let name),
                    .presence(let name):
                    name
                }
            }

            /// The value's name in `--help` (`N`, `FILE`), `nil` for a flag without a value.
            package var valueName: String? {
                switch self {
                case .value(_, let valueName), .repeatable(_, let valueName): valueName
                case .toggle, .inverseToggle, .presence: nil
                }
            }

            /// How people write it, for the documented table: `--loop` / `--no-loop`.
            package var spelling: String {
                switch self {
                case .value(let name, _), .presence(let name): "`--\(name)`"
                case .repeatable(let name, _): "`--\(name)` (repeatable)"
                case .toggle(let name): "`--\(name)` / `--no-\(name)`"
                case .inverseToggle(let name): "`--no-\(name)` / `--\(name)`"
                }
            }
        }

        /// A value the command line gave for a flag, as `tiltd` read it.
        package enum FlagValue: Sendable, Equatable {
            /// The texts of a `.value` or `.repeatable` flag, in order.
            case texts([String])
            /// A toggle or presence flag: `true` for `--NAME`, `false` for `--no-NAME`.
            case switched(Bool)
        }

        /// The config key (`max_clients`).
        package let key: String
        /// The flag that gives it.
        package let flag: Flag
        /// Where `tiltd.conf` lists it.
        package let section: Section
        /// What a value must be, for messages: `expected EXPECTS, got '…'`.
        package let expects: String
        /// The value used when it is not given, as people read it (`4096`, `the daemon's group`).
        package let defaultValue: String
        /// The value `tiltd.conf` shows commented out when the default is not a literal value (`tilt`).
        package let sample: String?
        /// One or two sentences for `--help` and the documented table.
        package let help: String
        /// More for the comment in `tiltd.conf`.
        package let note: String?
        /// Settings of one group make one choice: a flag naming any of them replaces the file's whole choice.
        package let choice: String?
        /// The value a `.value` flag given alone stands for (`--evdev` is `--evdev auto`), if it may be given alone:
        /// ``DaemonOptions/givingBareValues(_:)`` writes it in before the command line is parsed.
        package let bare: String?
        /// Sets the field from texts; `false` when they are not what the setting expects.
        let assign: @Sendable (inout DaemonOptions, [String], _ fromFlag: Bool) -> Bool
        /// Whether the options give this setting.
        let isGiven: @Sendable (DaemonOptions) -> Bool
        /// Copies this setting's field from the first options to the second; clears it when `nil`.
        let copy: @Sendable (DaemonOptions?, inout DaemonOptions) -> Void

        /// A setting whose value lands in `field`, read as `accepts` says.
        init<Value: Sendable>(
            _ key: String, _ field: any WritableKeyPath<DaemonOptions, Value?> & Sendable, flag: Flag, section: Section,
            accepts: Accepts<Value>, default defaultValue: String, sample: String? = nil, help: String,
            note: String? = nil, choice: String? = nil, bare: String? = nil
        ) {
            self.key = key
            self.flag = flag
            self.section = section
            self.expects = accepts.expects
            self.defaultValue = defaultValue
            self.sample = sample
            self.help = help
            self.note = note
            self.choice = choice
            self.bare = bare
            assign = { options, texts, fromFlag in
                options[keyPath: field] = accepts.read(texts, fromFlag)
                return options[keyPath: field] != nil
            }
            isGiven = { $0[keyPath: field] != nil }
            copy = { source, target in target[keyPath: field] = source?[keyPath: field] }
        }

        /// The line `tiltd --help` shows for the flag.
        package var helpLine: String {
            switch flag {
            case .presence: help
            case .inverseToggle(let name):
                // The default is the key's (`no_mag = false`); said as the flag that has it (`--mag`).
                "--no-\(name): \(help.prefix(1).lowercased() + help.dropFirst()) "
                    + "[default: --\(defaultValue == "true" ? "no-" : "")\(name)]"
            case .value, .repeatable, .toggle: "\(help) [default: \(defaultValue)]"
            }
        }

        /// Sets this setting in `options` from texts given at `origin`.
        ///
        /// - Throws: ``ConfigError`` saying what was expected and what was given.
        func apply(_ texts: [String], to options: inout DaemonOptions, origin: ConfigError.Origin) throws(ConfigError) {
            let fromFlag = if case .flag = origin { true } else { false }
            guard assign(&options, texts, fromFlag) else {
                let given = texts.joined(separator: " ").prefix(80)
                throw ConfigError(.badValue, origin: origin, key: key, reason: "expected \(expects), got '\(given)'")
            }
        }

        /// The texts a flag's value stands for: a switch becomes `true` or `false` for the key (inverted for
        /// `--no-NAME` keys).
        func texts(of value: FlagValue) -> [String] {
            switch value {
            case .texts(let texts): texts
            case .switched(let on):
                if case .inverseToggle = flag { [on ? "false" : "true"] } else { [on ? "true" : "false"] }
            }
        }
    }
}
