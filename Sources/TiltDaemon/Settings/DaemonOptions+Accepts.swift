import TiltSensors

extension DaemonOptions {
    /// What a setting accepts: the words for messages (`expected EXPECTS, got '…'`) and how texts become its value.
    ///
    /// The same reading serves the config file and the flags, so both accept and refuse the same values.
    package struct Accepts<Value: Sendable>: Sendable {
        /// What a value must be, as people read it.
        package let expects: String
        /// The value the texts give (one for a file line or a flag, several for a repeated flag), `nil` when they are
        /// not acceptable.
        let read: @Sendable (_ texts: [String], _ fromFlag: Bool) -> Value?

        /// One text, read by `parse`.
        static func one(_ expects: String, _ parse: @escaping @Sendable (String) -> Value?) -> Self {
            Self(expects: expects) { texts, _ in texts.count == 1 ? parse(texts[0]) : nil }
        }
    }
}

extension DaemonOptions.Accepts where Value == String {
    /// A file or folder path: not empty, no NUL.
    static func path(_ expects: String) -> Self {
        .one(expects) { $0.isEmpty || $0.contains("\0") ? nil : $0 }
    }

    /// A name or address: not empty.
    static func name(_ expects: String) -> Self {
        .one(expects) { $0.isEmpty ? nil : $0 }
    }
}

extension DaemonOptions.Accepts where Value == Int {
    /// A whole number in `range`, of `unit` when it has one (`bytes`).
    static func wholeNumber(in range: ClosedRange<Int>, of unit: String? = nil) -> Self {
        let of = unit.map { " of \($0)" } ?? ""
        return .one("a whole number\(of) from \(range.lowerBound) to \(range.upperBound)") {
            Int($0).flatMap { range.contains($0) ? $0 : nil }
        }
    }
}

extension DaemonOptions.Accepts where Value == Double {
    /// A finite number in `range`.
    static func number(_ expects: String, in range: ClosedRange<Double>) -> Self {
        .one(expects) { Double($0).flatMap { range.contains($0) && $0.isFinite ? $0 : nil } }
    }

    /// A finite number above zero.
    static func positive(_ expects: String) -> Self {
        .one(expects) { Double($0).flatMap { $0 > 0 && $0.isFinite ? $0 : nil } }
    }
}

extension DaemonOptions.Accepts where Value == Bool {
    /// `true`/`false`, `yes`/`no`, `on`/`off` or `1`/`0`, whichever pair `expects` names.
    static func boolean(_ expects: String = "true or false") -> Self {
        .one(expects) {
            switch $0.lowercased() {
            case "true", "yes", "on", "1": true
            case "false", "no", "off", "0": false
            default: nil
            }
        }
    }
}

extension DaemonOptions.Accepts where Value: RawRepresentable, Value.RawValue == String {
    /// One of the values' names, in any case.
    static func oneOf(_ expects: String) -> Self {
        .one(expects) { Value(rawValue: $0.lowercased()) }
    }
}

extension DaemonOptions.Accepts where Value == [String] {
    /// Paths: `separator`-separated in the file, one per flag on the command line (a flag keeps a `separator`).
    static func paths(separatedBy separator: Character, _ expects: String) -> Self {
        Self(expects: expects) { texts, fromFlag in
            let items = fromFlag ? texts : texts.flatMap { $0.split(separator: separator).map(String.init) }
            let kept = items.filter { !$0.isEmpty && !$0.contains("\0") }
            return kept.isEmpty || (fromFlag && kept.count != items.count) ? nil : kept
        }
    }
}

extension DaemonOptions.Accepts where Value == DSUEndpoint {
    /// A DSU server's address: `HOST[:PORT][/SLOT]` for one to read, `ADDRESS[:PORT]` (no slot) for tiltd's own.
    static func dsu(_ expects: String, allowsSlot: Bool) -> Self {
        .one(expects) { try? DSUEndpoint.parse($0, allowsSlot: allowsSlot) }
    }
}
