extension DaemonOptions {
    /// The command line with the value written in after each flag given alone that may be (a setting with a
    /// ``Setting/bare`` value): `--evdev --log-level debug` becomes `--evdev auto --log-level debug`.
    ///
    /// ArgumentParser has no options whose value may be left out, so `tiltd` rewrites its arguments before parsing.
    /// A flag is alone when it is last or the next argument starts with `-`; `--evdev=PATH` and everything after
    /// `--` are left as they are.
    ///
    /// - Parameter arguments: The arguments, without the program's name.
    package static func givingBareValues(_ arguments: [String]) -> [String] {
        let bare = Dictionary(
            settings.compactMap { setting in setting.bare.map { ("--" + setting.flag.name, $0) } },
            uniquingKeysWith: { first, _ in first })
        var out: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            out.append(argument)
            index += 1
            if argument == "--" {
                out += arguments[index...]
                break
            }
            if let value = bare[argument], index == arguments.endIndex || arguments[index].hasPrefix("-") {
                out.append(value)
            }
        }
        return out
    }
}
