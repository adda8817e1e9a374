import CZlib
import TiltCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a sensor log (CSV, or gzip-compressed CSV) one row at a time.
///
/// The format (docs/log-format.md, a contract): lines starting with `#` are comments, and `# key=value; key=value` comments
/// carry metadata. The first other line is the header. Required columns: `t`, `gyr_x..z`, `acc_x..z`; optional:
/// `mag_x..z` (all three or none), `truth_w..z`, `movement`; unknown columns are ignored. Blank lines are skipped.
///
/// A bad row throws a ``SensorLogError`` naming the file, line and column, and the reader stays usable: the next
/// call to ``next()`` reads the row after it. Callers decide whether to stop (``SensorLog/read(path:)``) or to skip
/// and count (the daemon's replay).
public final class SensorLogReader {
    /// A parsed row.
    public typealias Row = SensorLogRow

    /// The log's path.
    public let path: String
    /// `key=value` pairs from `#` comments seen before the header.
    public var metadata: [String: String] { parser.metadata }
    /// The header's column names.
    public var columns: [String] { parser.columns }
    /// Whether the log has `mag_x..z` columns.
    public var hasMagnetometer: Bool { parser.hasMagnetometer }
    /// Whether the log has `truth_w..z` columns.
    public var hasTruth: Bool { parser.hasTruth }
    /// Whether the log has a `movement` column.
    public var hasMovement: Bool { parser.hasMovement }

    private var file: gzFile?
    private var buffer: [UInt8] = []
    private var bufferStart = 0
    private var atEOF = false
    private var lineNumber = 0
    private var parser: SensorLogParser

    /// Opens `path` and reads the comments and header.
    ///
    /// - Throws: ``SensorLogError`` when the file cannot be opened, is empty, or its header lacks a required column.
    public init(path: String) throws(SensorLogError) {
        self.path = path
        parser = SensorLogParser(path: path)
        guard let f = gzopen(path, "rb") else {
            let reason = String(cString: strerror(errno))
            throw SensorLogError(path: path, message: "cannot open the log (\(reason)); check the path")
        }
        file = f
        gzbuffer(f, 1 << 17)
        while !parser.hasHeader {
            guard let line = try readLine() else { throw parser.missingHeaderError }
            _ = try parser.consume(line, lineNumber: lineNumber)
        }
    }

    deinit {
        if let file { gzclose(file) }
    }

    /// Reads the next data row, `nil` at the end of the file.
    ///
    /// - Throws: ``SensorLogError`` for a malformed row (wrong number of fields, a value that is not a number, a
    ///   required value that is not finite) or a read error. The reader can go on after a row error.
    public func next() throws(SensorLogError) -> Row? {
        while let line = try readLine() {
            if let row = try parser.consume(line, lineNumber: lineNumber) { return row }
        }
        return nil
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
            throw SensorLogError(
                path: path, line: lineNumber + 1,
                message: "cannot read the log: \(message); the file may be truncated or not gzip")
        }
        buffer.removeLast(chunk - Int(n))
        if n == 0 { atEOF = true }
    }
}
