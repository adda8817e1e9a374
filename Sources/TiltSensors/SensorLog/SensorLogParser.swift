import TiltCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The text rules of the sensor log format, line by line, without any file I/O: what ``SensorLogReader`` applies to
/// each line it reads, and what the log-row fuzz target drives directly.
///
/// Feed it every line of a log in order with ``consume(_:lineNumber:)``: comments and blank lines are skipped
/// (`# key=value; …` comments before the header become ``metadata``), the first other line is the header, and each
/// line after it is a data row. A bad row throws and leaves the parser ready for the next line.
package struct SensorLogParser: Sendable {
    /// The log's path, for error messages.
    package let path: String
    /// `key=value` pairs from `#` comments seen before the header.
    package private(set) var metadata: [String: String] = [:]
    /// The header's column names; empty until the header has been read.
    package private(set) var columns: [String] = []
    /// Whether the header has been read.
    package private(set) var hasHeader = false
    /// Whether the log has `mag_x..z` columns.
    package private(set) var hasMagnetometer = false
    /// Whether the log has `truth_w..z` columns.
    package private(set) var hasTruth = false
    /// Whether the log has a `movement` column.
    package private(set) var hasMovement = false
    /// Data rows taken so far, bad ones included: the 1-based row number of the last one.
    package private(set) var rowCount = 0

    /// The longest field read as a number, in bytes; longer ones are refused as not a number.
    package static let maxFieldLength = 256

    private var index = ColumnIndex()
    /// A gap marked (`# gap …`) since the last good row, passed on with the next one; at the end of the log, the
    /// gap after its last row (samples lost at the end of a recording).
    package private(set) var pendingGap: SampleGap?
    /// The time of the last good row, to tell time that goes backwards.
    private var lastRowTime: Double?

    private struct ColumnIndex: Sendable {
        var t = -1
        var gyr = [-1, -1, -1]
        var acc = [-1, -1, -1]
        var mag = [-1, -1, -1]
        var truth = [-1, -1, -1, -1]
        var movement = -1
        var count = 0
    }

    package init(path: String) {
        self.path = path
    }

    /// Takes the next line of the log (without its `\n`).
    ///
    /// - Parameters:
    ///   - line: The line's bytes; surrounding spaces, tabs and a `\r` are ignored.
    ///   - lineNumber: Its 1-based line number, for error messages.
    /// - Returns: The row, when the line is a data row; `nil` for comments, blank lines and the header.
    /// - Throws: ``SensorLogError`` for a header without the required columns or a malformed row (wrong number of
    ///   fields, a value that is not a number, a required value that is not finite).
    package mutating func consume(_ line: ArraySlice<UInt8>, lineNumber: Int) throws(SensorLogError)
        -> SensorLogRow?
    {
        let line = Self.trimmed(line)
        if line.isEmpty { return nil }
        if line.first == UInt8(ascii: "#") {
            let text = String(decoding: line.dropFirst(), as: UTF8.self)
            if !hasHeader {
                parseMetadata(text)
            } else if let gap = Self.gapMarker(text) {
                pendingGap = pendingGap.map { $0.merged(with: gap) } ?? gap
            }
            return nil
        }
        guard hasHeader else {
            try readHeader(line, lineNumber: lineNumber)
            return nil
        }
        rowCount += 1
        var row = try parseRow(line, lineNumber: lineNumber)
        let t = row.sample.time
        if let last = lastRowTime, t < last {
            let back = SampleGap(reason: "time goes back from \(last) s to \(t) s")
            pendingGap = pendingGap.map { $0.merged(with: back) } ?? back
        }
        lastRowTime = t
        row.gap = pendingGap
        pendingGap = nil
        return row
    }

    /// The gap a comment after the header marks, if it is a marker: `gap`, then optionally `key=value` pairs
    /// separated by `;` (`count`, `first`, `last`, `reason`; others are ignored), e.g.
    /// `# gap count=393; first=21.5025; last=21.9225`.
    package static func gapMarker(_ comment: String) -> SampleGap? {
        let text = comment.drop { $0 == " " || $0 == "\t" }
        guard text.hasPrefix("gap") else { return nil }
        let rest = text.dropFirst(3)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        var gap = SampleGap()
        for part in rest.split(separator: ";") {
            guard let eq = part.firstIndex(of: "=") else { continue }
            let key = part[..<eq].trimmingSpaces()
            let value = part[part.index(after: eq)...].trimmingSpaces()
            switch key {
            case "count": gap.count = Int(value).flatMap { $0 >= 0 ? $0 : nil }
            case "first": gap.first = Double(value).flatMap { $0.isFinite ? $0 : nil }
            case "last": gap.last = Double(value).flatMap { $0.isFinite ? $0 : nil }
            case "reason": gap.reason = value.isEmpty ? nil : value
            default: break
            }
        }
        return gap
    }

    /// The error for a log that ended before its header.
    package var missingHeaderError: SensorLogError {
        SensorLogError(
            path: path,
            message: "the log has no header line; expected a CSV header such as t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z")
    }

    private mutating func parseMetadata(_ text: String) {
        for part in text.split(separator: ";") {
            guard let eq = part.firstIndex(of: "=") else { continue }
            let key = part[..<eq].trimmingSpaces()
            let value = part[part.index(after: eq)...].trimmingSpaces()
            if !key.isEmpty, !key.contains(" ") { metadata[key] = value }
        }
    }

    private mutating func readHeader(_ line: ArraySlice<UInt8>, lineNumber: Int) throws(SensorLogError) {
        let names = String(decoding: line, as: UTF8.self).split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingSpaces() }
        var idx = ColumnIndex()
        idx.count = names.count
        func find(_ name: String) -> Int { names.firstIndex(of: name) ?? -1 }
        idx.t = find("t")
        idx.gyr = ["gyr_x", "gyr_y", "gyr_z"].map(find)
        idx.acc = ["acc_x", "acc_y", "acc_z"].map(find)
        idx.mag = ["mag_x", "mag_y", "mag_z"].map(find)
        idx.truth = ["truth_w", "truth_x", "truth_y", "truth_z"].map(find)
        idx.movement = find("movement")
        var missing: [String] = []
        if idx.t < 0 { missing.append("t") }
        for (name, i) in zip(["gyr_x", "gyr_y", "gyr_z", "acc_x", "acc_y", "acc_z"], idx.gyr + idx.acc) where i < 0 {
            missing.append(name)
        }
        let found = Self.describeColumns(names)
        if !missing.isEmpty {
            throw SensorLogError(
                path: path, line: lineNumber, column: missing.joined(separator: ","),
                message: "the header lacks the required column\(missing.count == 1 ? "" : "s") "
                    + "\(missing.joined(separator: ", ")); it has \(found). Name the columns as docs/log-format.md "
                    + "says: t, gyr_x..z and acc_x..z, optionally mag_x..z",
                kind: .header)
        }
        let magFound = idx.mag.filter { $0 >= 0 }.count
        if magFound != 0 && magFound != 3 {
            throw SensorLogError(
                path: path, line: lineNumber, column: "mag_x..z",
                message: "the header has only some of mag_x, mag_y, mag_z; it has \(found). Give all three or none",
                kind: .header)
        }
        columns = names
        hasHeader = true
        hasMagnetometer = magFound == 3
        hasTruth = idx.truth.allSatisfy { $0 >= 0 }
        hasMovement = idx.movement >= 0
        index = idx
    }

    /// What a header has, for an error message: its first 20 names, each cut to 40 characters.
    private static func describeColumns(_ names: [String]) -> String {
        // Bytes that are not text (a compressed file of another kind) are not quoted back.
        let binary = names.contains { name in
            name.unicodeScalars.contains { $0 == "\u{FFFD}" || ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }
        }
        if binary { return "binary data (not text) instead of column names: this is not a sensor log" }
        let shown = names.prefix(20).map { $0.count > 40 ? $0.prefix(40) + "…" : $0 }.map { "'\($0)'" }
        let more = names.count > shown.count ? ", … (\(names.count) in all)" : ""
        return "\(names.count == 1 ? "one column" : "these columns"): \(shown.joined(separator: ", "))\(more)"
    }

    private func parseRow(_ line: ArraySlice<UInt8>, lineNumber: Int) throws(SensorLogError) -> SensorLogRow {
        var fields: [ArraySlice<UInt8>] = []
        fields.reserveCapacity(index.count)
        var start = line.startIndex
        for i in line.indices where line[i] == UInt8(ascii: ",") {
            fields.append(line[start..<i])
            start = i + 1
        }
        fields.append(line[start..<line.endIndex])
        guard fields.count == index.count else {
            throw SensorLogError(
                path: path, line: lineNumber,
                message: "the row has \(fields.count) fields but the header has \(index.count) columns")
        }
        func value(_ i: Int, required: Bool) throws(SensorLogError) -> Double {
            let text = fields[i]
            guard let v = Self.parseDouble(text) else {
                throw SensorLogError(
                    path: path, line: lineNumber, column: columns[i],
                    message: "'\(String(decoding: text.prefix(80), as: UTF8.self))' is not a number")
            }
            if required && !v.isFinite {
                throw SensorLogError(
                    path: path, line: lineNumber, column: columns[i], message: "the value is not finite")
            }
            return v
        }
        func vector(_ i: [Int], required: Bool) throws(SensorLogError) -> Vector3 {
            Vector3(
                try value(i[0], required: required), try value(i[1], required: required),
                try value(i[2], required: required))
        }
        let t = try value(index.t, required: true)
        let g = try vector(index.gyr, required: true)
        let a = try vector(index.acc, required: true)
        var mag: Vector3?
        if hasMagnetometer {
            let m = try vector(index.mag, required: false)
            mag = m.isFinite ? m : nil
        }
        var truth: Quaternion?
        if hasTruth {
            let q = Quaternion(
                w: try value(index.truth[0], required: false), x: try value(index.truth[1], required: false),
                y: try value(index.truth[2], required: false), z: try value(index.truth[3], required: false))
            truth = q.isFinite ? q : nil
        }
        var movement: Bool?
        if hasMovement {
            let m = try value(index.movement, required: false)
            movement = m.isFinite && m != 0
        }
        return SensorLogRow(
            sample: MotionSample(time: t, gyro: g, accel: a, mag: mag), truth: truth, movement: movement,
            line: lineNumber)
    }

    private static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = line
        while let last = s.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            s = s.dropLast()
        }
        while let first = s.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { s = s.dropFirst() }
        return s
    }

    /// A decimal number as `strtod` reads it in the C locale, the whole field and nothing else.
    private static func parseDouble(_ text: ArraySlice<UInt8>) -> Double? {
        var s = text
        while let f = s.first, f == UInt8(ascii: " ") { s = s.dropFirst() }
        while let l = s.last, l == UInt8(ascii: " ") { s = s.dropLast() }
        guard !s.isEmpty, s.count <= maxFieldLength else { return nil }
        return s.withUnsafeBufferPointer { buf -> Double? in
            // strtod wants a terminated string; copy into a small stack buffer.
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: buf.count + 1) { tmp -> Double? in
                for i in 0..<buf.count { tmp[i] = CChar(bitPattern: buf[i]) }
                tmp[buf.count] = 0
                var end: UnsafeMutablePointer<CChar>?
                let v = strtod(tmp.baseAddress!, &end)
                guard let end, end == tmp.baseAddress! + buf.count else { return nil }
                return v
            }
        }
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        var s = self[...]
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
