import ArgumentParser
import TiltDaemon

extension Tiltd {
    /// The settings the command line gives, by flag name (`max-clients`), read from the setting properties.
    ///
    /// Each setting property is named after its flag (ArgumentParser's own `--kebab-case` convention), so the
    /// properties are found by reflection rather than listed a second time by hand; a property whose name is no
    /// setting's flag (`config`, `check`) is skipped.
    var givenFlags: [String: DaemonOptions.Setting.FlagValue] {
        var given: [String: DaemonOptions.Setting.FlagValue] = [:]
        for child in Mirror(reflecting: self).children {
            guard let label = child.label, label.hasPrefix("_") else { continue }
            let flag = Self.flagName(property: String(label.dropFirst()))
            guard DaemonOptions.setting(flag: flag) != nil else { continue }
            switch child.value {
            case let option as Option<String?>:
                if let text = option.wrappedValue { given[flag] = .texts([text]) }
            case let option as Option<[String]>:
                if !option.wrappedValue.isEmpty { given[flag] = .texts(option.wrappedValue) }
            case let toggle as Flag<Bool?>:
                if let on = toggle.wrappedValue { given[flag] = .switched(on) }
            case let presence as Flag<Bool>:
                if presence.wrappedValue { given[flag] = .switched(true) }
            default:
                continue
            }
        }
        return given
    }

    /// `max-clients` for `maxClients`: the long name ArgumentParser gives a property.
    static func flagName(property: String) -> String {
        property.reduce(into: "") { name, character in
            if character.isUppercase {
                name += "-" + character.lowercased()
            } else {
                name.append(character)
            }
        }
    }
}

extension ArgumentHelp {
    /// The help of the setting with config key `key`: its text, default and value name from the settings table.
    static func setting(_ key: String) -> ArgumentHelp {
        guard let setting = DaemonOptions.setting(key: key) else {
            preconditionFailure("tiltd declares a flag for '\(key)', which DaemonOptions.settings does not describe")
        }
        return ArgumentHelp(setting.helpLine, valueName: setting.flag.valueName)
    }
}
