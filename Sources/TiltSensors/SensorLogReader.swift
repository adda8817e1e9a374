#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib
import TiltCore

/// Reads a sensor log (CSV, or gzip-compressed CSV) one row at a time.
///
/// The format (DESIGN.md, a contract): lines starting with `#` are comments, and `# key=value; key=value` comments
/// carry metadata. The first other line is the header. Required columns: `t`, `gyr_x..z`, `acc_x..z`; optional:
/// `mag_x..z` (all three or none), `truth_w..z`, `movement`; unknown columns are ignored. Blank lines are skipped.
///
/// A bad row throws a ``SensorLogError`` naming the file, line and column, and the reader stays usable: the next
/// call to ``next()`` reads the row after it. Callers decide whether to stop (``SensorLog/read(path:)``) or to skip
/// and count (the daemon's replay).
public final class SensorLogReader {
    /// A parsed row.
    public struct Row: Sendable, Equatable {
        public var sample: MotionSample
        /// The reference orientation, if the log has `truth_*` columns and this row's are finite.
        public var truth: Quaternion?
        /// The `movement` column, if present.
        public var movement: Bool?
        /// The row's 1-based line number in the file.
        public var line: Int
    }

    /// The log's path.
    public let path: String
    /// `key=value` pairs from `#` comments seen before the header.
    public private(set) var metadata: [String: String] = [:]
    /// The header's column names.
    public private(set) var columns: [String] = []
    /// Whether the log has `mag_x..z` columns.
    public private(set) var hasMagnetometer = false
    /// Whether the log has `truth_w..z` columns.
    public private(set) var hasTruth = false
    /// Whether the log has a `movement` column.
    public private(set) var hasMovement = false

    private var file: gzFile?
    private var buffer: [UInt8] = []
    private var bufferStart = 0
    private var atEOF = false
    private var lineNumber = 0
    private var index = ColumnIndex()

    private struct ColumnIndex {
        var t = -1
        var gyr = [-1, -1, -1]
        var acc = [-1, -1, -1]
        var mag = [-1, -1, -1]
        var truth = [-1, -1, -1, -1]
        var movement = -1
        var count = 0
    }

    /// Opens `path` and reads the comments and header.
    ///
    /// - Throws: ``SensorLogError`` when the file cannot be opened, is empty, or its header lacks a required column.
    public init(path: String) throws(SensorLogError) {
        self.path = path
        guard let f = gzopen(path, "rb") else {
            let reason = String(cString: strerror(errno))
            throw SensorLogError(path: path, message: "cannot open the log (\(reason)); check the path")
        }
        file = f
        gzbuffer(f, 1 << 17)
        try readHeader()
    }

    deinit {
        if let file { gzclose(file) }
    }

    private func readHeader() throws(SensorLogError) {
        while let raw = try readLine() {
            let line = trimmed(raw)
            if line.isEmpty { continue }
            if line.first == UInt8(ascii: "#") {
                parseMetadata(String(decoding: line.dropFirst(), as: UTF8.self))
                continue
            }
            columns = String(decoding: line, as: UTF8.self).split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingSpaces() }
            try indexColumns()
            return
        }
        throw SensorLogError(path: path, message: "the log has no header line; expected a CSV header such as t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z")
    }

    private func parseMetadata(_ text: String) {
        for part in text.split(separator: ";") {
            guard let eq = part.firstIndex(of: "=") else { continue }
            let key = part[..<eq].trimmingSpaces()
            let value = part[part.index(after: eq)...].trimmingSpaces()
            if !key.isEmpty, !key.contains(" ") { metadata[key] = value }
        }
    }

    private func indexColumns() throws(SensorLogError) {
        var idx = ColumnIndex()
        idx.count = columns.count
        func find(_ name: String) -> Int { columns.firstIndex(of: name) ?? -1 }
        idx.t = find("t")
        idx.gyr = ["gyr_x", "gyr_y", "gyr_z"].map(find)
        idx.acc = ["acc_x", "acc_y", "acc_z"].map(find)
        idx.mag = ["mag_x", "mag_y", "mag_z"].map(find)
        idx.truth = ["truth_w", "truth_x", "truth_y", "truth_z"].map(find)
        idx.movement = find("movement")
        let headerLine = lineNumber
        var missing: [String] = []
        if idx.t < 0 { missing.append("t") }
        for (name, i) in zip(["gyr_x", "gyr_y", "gyr_z", "acc_x", "acc_y", "acc_z"], idx.gyr + idx.acc) where i < 0 {
            missing.append(name)
        }
        if !missing.isEmpty {
            throw SensorLogError(
                path: path, line: headerLine, column: missing.joined(separator: ","),
                message: "the header lacks required column(s) \(missing.joined(separator: ", ")); a log needs t, gyr_x..z and acc_x..z")
        }
        let magFound = idx.mag.filter { $0 >= 0 }.count
        if magFound != 0 && magFound != 3 {
            throw SensorLogError(path: path, line: headerLine, column: "mag_x..z", message: "the header has only some of mag_x, mag_y, mag_z; give all three or none")
        }
        hasMagnetometer = magFound == 3
        hasTruth = idx.truth.allSatisfy { $0 >= 0 }
        hasMovement = idx.movement >= 0
        index = idx
    }

    /// Reads the next data row, `nil` at the end of the file.
    ///
    /// - Throws: ``SensorLogError`` for a malformed row (wrong number of fields, a value that is not a number, a
    ///   required value that is not finite) or a read error. The reader can go on after a row error.
    public func next() throws(SensorLogError) -> Row? {
        while let raw = try readLine() {
            let line = trimmed(raw)
            if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
            return try parseRow(line)
        }
        return nil
    }

    private func parseRow(_ line: ArraySlice<UInt8>) throws(SensorLogError) -> Row {
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
            guard let v = parseDouble(text) else {
                throw SensorLogError(
                    path: path, line: lineNumber, column: columns[i],
                    message: "'\(String(decoding: text, as: UTF8.self))' is not a number")
            }
            if required && !v.isFinite {
                throw SensorLogError(path: path, line: lineNumber, column: columns[i], message: "the value is not finite")
            }
            return v
        }
        let t = try value(index.t, required: true)
        let g = Vector3(try value(index.gyr[0], required: true), try value(index.gyr[1], required: true), try value(index.gyr[2], required: true))
        let a = Vector3(try value(index.acc[0], required: true), try value(index.acc[1], required: true), try value(index.acc[2], required: true))
        var mag: Vector3?
        if hasMagnetometer {
            let m = Vector3(try value(index.mag[0], required: false), try value(index.mag[1], required: false), try value(index.mag[2], required: false))
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
        return Row(sample: MotionSample(time: t, gyro: g, accel: a, mag: mag), truth: truth, movement: movement, line: lineNumber)
    }

    /// Reads one line without its terminator, `nil` at the end of the file.
    private func readLine() throws(SensorLogError) -> ArraySlice<UInt8>? {
        while true {
            if let nl = buffer[bufferStart...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[bufferStart..<nl]
                bufferStart = nl + 1
                lineNumber += 1
                return line
            }
            if atEOF {
                guard bufferStart < buffer.count else { return nil }
                let line = buffer[bufferStart...]
                bufferStart = buffer.count
                lineNumber += 1
                return line
            }
            try fill()
        }
    }

    private func fill() throws(SensorLogError) {
        if bufferStart > 0 {
            buffer.removeFirst(bufferStart)
            bufferStart = 0
        }
        let chunk = 1 << 16
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        let n = buffer.withUnsafeMutableBytes { raw in
            gzread(file, raw.baseAddress! + old, UInt32(chunk))
        }
        if n < 0 {
            var code: Int32 = 0
            let message = gzerror(file, &code).map { String(cString: $0) } ?? "read error"
            buffer.removeLast(chunk)
            throw SensorLogError(path: path, line: lineNumber + 1, message: "cannot read the log: \(message); the file may be truncated or not gzip")
        }
        buffer.removeLast(chunk - Int(n))
        if n == 0 { atEOF = true }
    }

    private func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = line
        while let last = s.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { s = s.dropLast() }
        while let first = s.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { s = s.dropFirst() }
        return s
    }

    private func parseDouble(_ text: ArraySlice<UInt8>) -> Double? {
        var s = text
        while let f = s.first, f == UInt8(ascii: " ") { s = s.dropFirst() }
        while let l = s.last, l == UInt8(ascii: " ") { s = s.dropLast() }
        guard !s.isEmpty, s.count < 64 else { return nil }
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
