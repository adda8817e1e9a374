/// A bad setting of a tilt config file or flag (`tiltd`'s, the wallpaper's), naming where it was given (a config
/// file line or a command-line flag) and what was expected.
///
/// `tiltd` checks its file and flags by the same table (`DaemonOptions.settings`), so both say the same
/// `expected …, got '…'`; ``origin`` tells a caller which one to blame: `tiltd` answers a bad flag with its usage
/// text, and a bad file with the file's name and line.
public struct ConfigError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Where a setting came from.
    public enum Origin: Sendable, Equatable {
        /// A config file; `line` is 1-based, `nil` for a problem with the whole file (it cannot be read).
        case file(path: String, line: Int?)
        /// A command-line flag, spelled as given (`--max-clients`).
        case flag(String)
    }

    /// What is wrong with the setting, for a caller to switch on.
    public enum Kind: Sendable, Hashable {
        /// The config file cannot be read.
        case unreadable
        /// A line is not `key = value`, a `[section]` header, a comment or blank (or its quoted value is broken).
        case syntax
        /// A key is given twice in the file.
        case repeatedKey
        /// No setting has this key.
        case unknownKey
        /// No setting has this command-line flag.
        case unknownFlag
        /// A known setting's value is not one it takes.
        case badValue
    }

    /// What is wrong.
    public var kind: Kind
    /// Where the bad setting was given.
    public var origin: Origin
    /// The config key the problem is about, if any.
    public var key: String?
    /// What is wrong and what to write instead.
    public var reason: String

    public init(_ kind: Kind, origin: Origin, key: String?, reason: String) {
        self.kind = kind
        self.origin = origin
        self.key = key
        self.reason = reason
    }

    /// A problem in the config file at `path`.
    public init(_ kind: Kind, path: String, line: Int?, key: String?, reason: String) {
        self.init(kind, origin: .file(path: path, line: line), key: key, reason: reason)
    }

    /// `FILE:LINE: key 'KEY': REASON` (the shape compilers use, so editors can jump to it), or `--FLAG: REASON`.
    public var description: String {
        switch origin {
        case .flag(let flag):
            return "\(flag): \(reason)"
        case .file(let path, let line):
            let place = line.map { "\(path):\($0)" } ?? path
            return "\(place): " + (key.map { "key '\($0)': " } ?? "") + reason
        }
    }
}
