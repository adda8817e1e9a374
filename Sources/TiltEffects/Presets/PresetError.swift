/// A preset that cannot be found, read or understood; the message says what to do.
package struct PresetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the preset, for a caller to switch on.
    ///
    /// - `unknownPreset`: no preset of that name exists in any searched folder
    /// - `unreadable`: a preset, shader or texture file could not be read
    /// - `invalid`: a preset file holds a value that makes no sense
    /// - `syntax`: a preset file is not valid JSON
    /// - `notAPreset`: a path was given that is not a preset: a folder without `preset.json`, or a shader file on its
    ///   own
    package enum Kind: Sendable, Hashable {
        case unknownPreset, unreadable, invalid, syntax, notAPreset
    }

    /// What is wrong, with the data the words are made of.
    private enum Detail: Sendable, Hashable {
        case unknownPreset(name: String, available: [String], searched: [String])
        case unreadable(path: String, reason: String)
        case invalid(path: String, field: String, reason: String)
        case syntax(path: String, line: Int, column: Int, reason: String)
        case notAPreset(path: String, advice: String)
    }

    private let detail: Detail

    /// What is wrong.
    package var kind: Kind {
        switch detail {
        case .unknownPreset: .unknownPreset
        case .unreadable: .unreadable
        case .invalid: .invalid
        case .syntax: .syntax
        case .notAPreset: .notAPreset
        }
    }

    /// The field of a preset file that holds a value that makes no sense (`invalid`); `nil` otherwise.
    package var field: String? {
        if case .invalid(_, let field, _) = detail { return field }
        return nil
    }

    /// No preset of that name exists in any searched folder.
    package static func unknownPreset(_ name: String, available: [String], searched: [String]) -> PresetError {
        PresetError(detail: .unknownPreset(name: name, available: available, searched: searched))
    }

    /// A preset or shader file could not be read.
    /// `path` is not a preset (a folder without `preset.json`, a GLSL file); `advice` says what one needs.
    package static func notAPreset(_ path: String, advice: String) -> PresetError {
        PresetError(detail: .notAPreset(path: path, advice: advice))
    }

    package static func unreadable(_ path: String, reason: String) -> PresetError {
        PresetError(detail: .unreadable(path: path, reason: reason))
    }

    /// A preset file holds a value that makes no sense.
    package static func invalid(_ path: String, field: String, reason: String) -> PresetError {
        PresetError(detail: .invalid(path: path, field: field, reason: reason))
    }

    /// A preset file that is not valid JSON: where it stops being JSON (line and column from 1) and why.
    package static func syntax(_ path: String, line: Int, column: Int, reason: String) -> PresetError {
        PresetError(detail: .syntax(path: path, line: line, column: column, reason: reason))
    }

    /// The names of the presets that do exist, for an unknown preset; empty otherwise.
    package var availablePresets: [String] {
        if case .unknownPreset(_, let available, _) = detail { return available }
        return []
    }

    /// The file at fault (the preset file, or a shader or texture file it names); `nil` for an unknown preset.
    package var path: String? {
        switch detail {
        case .unknownPreset: nil
        case .unreadable(let path, _), .invalid(let path, _, _), .syntax(let path, _, _, _), .notAPreset(let path, _):
            path
        }
    }

    /// For a preset file that is not valid JSON, the line and column (from 1) where it stops being JSON.
    package var syntaxPosition: (line: Int, column: Int)? {
        if case .syntax(_, let line, let column, _) = detail { return (line, column) }
        return nil
    }

    package var description: String {
        switch detail {
        case .unknownPreset(let name, let available, let searched):
            let list = available.isEmpty ? "none found" : available.joined(separator: ", ")
            return "unknown preset '\(name)'. Available presets: \(list). "
                + "(Searched: \(searched.joined(separator: ", ")); add a folder with --presets DIR or TILT_PRESETS.)"
        case .unreadable(let path, let reason):
            return "\(path): cannot read: \(reason). Check that the file exists and is readable."
        case .invalid(let path, let field, let reason):
            return "\(path): \(field): \(reason)"
        case .notAPreset(let path, let advice):
            return "\(path) is not a preset: \(advice)"
        case .syntax(let path, let line, let column, let reason):
            return "\(path): line \(line), column \(column): not valid JSON: \(reason); fix the file there (a missing "
                + "comma or quote, or one too many, is the usual cause)"
        }
    }
}
