import FoundationEssentials
import TiltCore

/// Reads and writes calibration files (`*.calib`): a small INI-like text format, documented in
/// `Calibration/README.md`.
///
/// ```
/// format = 1
/// [match]
/// name = bmi160
/// [gyro]
/// bias = 0.0012, -0.0031, 0.0004
/// ```
package enum CalibrationFile {
    /// The format version this build reads and writes.
    package static let formatVersion = 1

    /// The file name extension the loader looks for.
    package static let pathExtension = "calib"

    /// Reads the calibration file at `path`.
    ///
    /// - Throws: ``CalibrationFileError`` naming the file, line and key of the first problem.
    package static func read(path: String) throws(CalibrationFileError) -> Calibration {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CalibrationFileError(
                .unreadable, path: path, line: nil, key: nil, problem: "cannot read it (\(errorReason(error)))")
        }
        return try parse(text, path: path)
    }

    /// Parses the text of a calibration file; `path` only names it in errors.
    ///
    /// - Throws: ``CalibrationFileError`` naming the file, line and key of the first problem.
    package static func parse(_ text: String, path: String) throws(CalibrationFileError) -> Calibration {
        var calibration = Calibration()
        var section = ""
        var format: Int?
        var seen = Set<String>()
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            func fail(_ key: String?, _ problem: String) -> CalibrationFileError {
                CalibrationFileError(.syntax, path: path, line: lineNumber, key: key, problem: problem)
            }
            let line = String(rawLine).trimmingIIOWhitespace()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw fail(nil, "a section header must look like [accel]") }
                section = String(line.dropFirst().dropLast()).trimmingIIOWhitespace()
                guard Self.sections.contains(section) else {
                    throw fail(nil, "unknown section [\(section)]; use [match], [mount], [accel], [gyro] or [magn]")
                }
                guard format != nil else { throw fail("format", "the file must start with `format = 1`") }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw fail(nil, "expected `key = value`, a [section] or a # comment, found '\(line)'")
            }
            let name = String(line[..<equals]).trimmingIIOWhitespace()
            var value = String(line[line.index(after: equals)...]).trimmingIIOWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            let key = section.isEmpty ? name : "\(section).\(name)"
            guard seen.insert(key).inserted else { throw fail(key, "set twice") }
            func vector() throws(CalibrationFileError) -> Vector3 {
                let v = numbers(value)
                guard let v, v.count == 3 else {
                    throw fail(key, "expected 3 comma-separated numbers (x, y, z), found '\(value)'")
                }
                return Vector3(v[0], v[1], v[2])
            }
            func matrix() throws(CalibrationFileError) -> Matrix3 {
                guard let v = numbers(value), let m = Matrix3(rowMajor: v) else {
                    throw fail(key, "expected 9 comma-separated numbers (a 3×3 matrix, row by row), found '\(value)'")
                }
                guard abs(m.determinant) > 1e-9 else {
                    throw fail(key, "the matrix is singular (determinant 0); it would erase a direction")
                }
                return m
            }
            func text() throws(CalibrationFileError) -> String {
                guard !value.isEmpty else { throw fail(key, "is empty; remove the line to leave it unset") }
                return value
            }
            switch key {
            case "format":
                guard let v = Int(value) else { throw fail(key, "expected a whole number, found '\(value)'") }
                guard v == formatVersion else {
                    throw fail(key, "format \(v) is not supported; this tilt reads format \(formatVersion)")
                }
                format = v
            case "description": calibration.description = value
            case "match.sys_vendor": calibration.match.sysVendor = try text()
            case "match.product_name": calibration.match.productName = try text()
            case "match.name": calibration.match.name = try text()
            case "match.label": calibration.match.label = try text()
            case "mount.matrix": calibration.mount = try matrix()
            case "accel.offset": calibration.accelOffset = try vector()
            case "accel.matrix": calibration.accelMatrix = try matrix()
            case "gyro.bias": calibration.gyroBias = try vector()
            case "magn.hard_iron": calibration.magHardIron = try vector()
            case "magn.soft_iron": calibration.magSoftIron = try matrix()
            default:
                let known = Self.keys[section].map { $0.joined(separator: ", ") } ?? ""
                let hint =
                    section.isEmpty
                    ? "before any section only format and description are allowed"
                    : "[\(section)] knows \(known)"
                throw fail(key, "unknown key '\(name)'; \(hint)")
            }
            if format == nil { throw fail("format", "the file must start with `format = 1`") }
        }
        guard format != nil else {
            throw CalibrationFileError(
                .syntax, path: path, line: nil, key: "format", problem: "missing; add `format = 1` at the top")
        }
        return calibration
    }

    /// The text of a calibration file for `calibration`; sections that are the identity are left out.
    ///
    /// - Parameter comment: Lines written as `#` comments at the top (how and when it was made).
    package static func text(for calibration: Calibration, comment: [String] = []) -> String {
        var lines = comment.map { "# \($0)" }
        lines.append("format = \(formatVersion)")
        if let d = calibration.description { lines.append("description = \"\(d)\"") }
        lines.append("")
        lines.append("[match]")
        for (key, value) in calibration.match.keys { lines.append("\(key) = \(value)") }
        func vector(_ v: Vector3) -> String { v.array.map(formatCalibrationNumber).joined(separator: ", ") }
        if calibration.mount != .identity {
            lines += ["", "[mount]", "matrix = \(calibration.mount)"]
        }
        if calibration.accelOffset != .zero || calibration.accelMatrix != .identity {
            lines += [
                "", "[accel]", "offset = \(vector(calibration.accelOffset))", "matrix = \(calibration.accelMatrix)",
            ]
        }
        if calibration.gyroBias != .zero {
            lines += ["", "[gyro]", "bias = \(vector(calibration.gyroBias))"]
        }
        if calibration.magHardIron != .zero || calibration.magSoftIron != .identity {
            lines += [
                "", "[magn]", "hard_iron = \(vector(calibration.magHardIron))",
                "soft_iron = \(calibration.magSoftIron)",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `text` to `path` atomically (``AtomicFileOutput``: a temporary file in the same folder, then a
    /// rename), creating the folder.
    ///
    /// - Parameter overwrite: Replace an existing file; without it an existing file is an error.
    /// - Throws: ``CalibrationFileError`` when the file exists (and `overwrite` is off) or cannot be written.
    package static func write(_ text: String, to path: String, overwrite: Bool) throws(CalibrationFileError) {
        do throws(OutputFileError) {
            if OutputPath.namesFolder(path) { throw OutputFileError(path: path, problem: .namesFolder) }
            try OutputPath.makeFolder(OutputPath.folder(of: path))
            let output = try AtomicFileOutput(path: path, replacing: overwrite)
            try output.write(text)
            try output.commit()
        } catch {
            let problem =
                switch error.problem {
                case .exists: "already exists; pass --force to replace it, or --output FILE to write elsewhere"
                case .isInput: "is an input; give another file name"
                case .isFolder, .namesFolder: "is a folder; give the path of a file to write"
                case .missingFolder(let folder): "cannot create its folder \(folder)"
                case .notFolder(let file): "\(file) is a file, not a folder; write elsewhere"
                case .folderRefuses(let folder, _):
                    "the folder \(folder) takes no new files (\(error.reason)); write elsewhere"
                case .create, .write, .rename: "cannot write it (\(error.reason))"
                }
            throw CalibrationFileError(
                error.problem == .exists ? .exists : .unwritable, path: path, line: nil, key: nil, problem: problem)
        }
    }

    static let sections: Set<String> = ["match", "mount", "accel", "gyro", "magn"]
    static let keys: [String: [String]] = [
        "match": ["sys_vendor", "product_name", "name", "label"], "mount": ["matrix"], "accel": ["offset", "matrix"],
        "gyro": ["bias"], "magn": ["hard_iron", "soft_iron"],
    ]

    private static func numbers(_ text: String) -> [Double]? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { String($0).trimmingIIOWhitespace() }
        let values = parts.compactMap { Double($0) }
        guard values.count == parts.count, values.allSatisfy(\.isFinite) else { return nil }
        return values
    }
}

/// A calibration file that cannot be read or written: which file, which line and key, and what is wrong.
package struct CalibrationFileError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong.
    ///
    /// - `unreadable`: the file cannot be read
    /// - `syntax`: a line of it is wrong: an unknown section or key, a bad value, a missing `format` (``line``,
    ///   ``key``)
    /// - `exists`: writing: it exists, and replacing it was not asked for
    /// - `unwritable`: writing: its folder cannot be made, or it cannot be written
    package enum Kind: Sendable, Hashable {
        case unreadable, syntax, exists, unwritable
    }

    /// What is wrong.
    package var kind: Kind
    /// The file.
    package var path: String
    /// The 1-based line, when the problem is on one.
    package var line: Int?
    /// The key, as `section.key` (e.g. `gyro.bias`), when the problem is with one.
    package var key: String?
    /// What is wrong and what to do.
    package var problem: String

    package init(_ kind: Kind, path: String, line: Int?, key: String?, problem: String) {
        self.kind = kind
        self.path = path
        self.line = line
        self.key = key
        self.problem = problem
    }

    package var description: String {
        var place = path
        if let line { place += ":\(line)" }
        if let key { return "\(place): \(key): \(problem)" }
        return "\(place): \(problem)"
    }
}
