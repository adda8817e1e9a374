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
/// A bad row throws a ``SensorLogError`` of kind ``SensorLogError/Kind/row`` naming the file, line and column, and
/// the reader stays usable: the next call to ``next()`` reads the row after it. Callers apply the one
/// ``BadRowPolicy``: skip and count, or stop with `--strict`.
///
/// A compressed log that ends early (cut off by an interrupted copy or recording: zlib reaches the end of the file
/// inside the gzip stream) throws ``SensorLogError/Kind/truncated`` naming the row it is cut at, instead of passing
/// the cut-off last line on as one more bad row. That error, and a read error, end the log: every later call throws
/// it again.
package final class SensorLogReader {
    /// A parsed row.
    package typealias Row = SensorLogRow

    /// The log's path.
    package let path: String
    /// `key=value` pairs from `#` comments seen before the header.
    package var metadata: [String: String] { parser.metadata }
    /// The header's column names.
    package var columns: [String] { parser.columns }
    /// Whether the log has `mag_x..z` columns.
    package var hasMagnetometer: Bool { parser.hasMagnetometer }
    /// Whether the log has `truth_w..z` columns.
    package var hasTruth: Bool { parser.hasTruth }
    /// Whether the log has a `movement` column.
    package var hasMovement: Bool { parser.hasMovement }
    /// A gap marked after the last row read so far: once ``next()`` has returned `nil`, the gap at the end of the
    /// log (samples a recording lost after its last one).
    package var gapAfterLastRow: SampleGap? { parser.pendingGap }

    private var file: gzFile?
    private var buffer: [UInt8] = []
    private var bufferStart = 0
    private var atEOF = false
    /// Set when zlib reached the end of the file inside the gzip stream.
    private var truncated = false
    /// The error that ended the log (truncation, read error), thrown again by every later read.
    private var failure: SensorLogError?
    private var lineNumber = 0
    private var parser: SensorLogParser

    /// Opens `path` and reads the comments and header.
    ///
    /// - Throws: ``SensorLogError`` when the file cannot be opened, is empty, or its header lacks a required column.
    package init(path: String) throws(SensorLogError) {
        self.path = path
        parser = SensorLogParser(path: path)
        // A folder or a file of another kind is named as such, rather than read as a log whose first line is raw
        // bytes (a header error quoting them) or a gzip stream that fails ("damaged or not gzip").
        switch FileSignature(path: path) {
        case .folder?:
            throw SensorLogError(
                path: path,
                message: "this is a folder, not a sensor log; give a log file (.csv or .csv.gz) from it, see "
                    + "docs/log-format.md")
        case .some(let signature) where signature != .text && signature != .gzip:
            throw SensorLogError(
                path: path,
                message: "this is \(signature), not a sensor log: a log is CSV text (t, gyr_x..z, acc_x..z, "
                    + "optionally mag_x..z), gzip-compressed when its name ends in .gz; see docs/log-format.md")
        default:
            break
        }
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
    package func next() throws(SensorLogError) -> Row? {
        while let line = try readLine() {
            if let row = try parser.consume(line, lineNumber: lineNumber) { return row }
        }
        return nil
    }

    /// Reads one line without its terminator, `nil` at the end of the file.
    private func readLine() throws(SensorLogError) -> ArraySlice<UInt8>? {
        if let failure { throw failure }
        while true {
            if let nl = buffer[bufferStart...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[bufferStart..<nl]
                bufferStart = nl + 1
                lineNumber += 1
                return line
            }
            if atEOF {
                // A cut-off stream's last line is incomplete whether or not it has bytes: it is not a row.
                if truncated { throw end(with: truncationError()) }
                guard bufferStart < buffer.count else { return nil }
                let line = buffer[bufferStart...]
                bufferStart = buffer.count
                lineNumber += 1
                return line
            }
            try fill()
        }
    }

    /// Remembers `error` as the end of the log and returns it.
    private func end(with error: SensorLogError) -> SensorLogError {
        buffer.removeAll()
        bufferStart = 0
        failure = error
        return error
    }

    /// The error for a gzip stream that ends early, at the row after the last complete one.
    private func truncationError() -> SensorLogError {
        let line = lineNumber + 1
        let advice = "the file was cut short (an interrupted copy, download or recording): copy it again or record anew"
        guard parser.hasHeader else {
            return SensorLogError(
                path: path, line: line,
                message: "the log is truncated before its header ends: its gzip stream ends early; \(advice)",
                kind: .truncated)
        }
        let row = parser.rowCount + 1
        // A recording killed mid-way ends like this too; its rows so far can be kept by decompressing what is there.
        let salvage =
            "to keep the rows before it, run `zcat '\(path)' > log.csv` (zcat complains about the end) and read log.csv"
        return SensorLogError(
            path: path, line: line,
            message: "the log is truncated at row \(row): its gzip stream ends early, so row \(row) and "
                + "any after it are missing or cut off; \(advice), or \(salvage)",
            kind: .truncated)
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
            throw end(
                with: SensorLogError(
                    path: path, line: lineNumber + 1,
                    message: "cannot read the log: \(message); the file is damaged or not gzip", kind: .file))
        }
        buffer.removeLast(chunk - Int(n))
        if n == 0 {
            atEOF = true
            // gzread returns what it could and leaves Z_BUF_ERROR when the file ends inside the gzip stream.
            var code: Int32 = 0
            _ = gzerror(file, &code)
            truncated = code == Z_BUF_ERROR
        }
    }
}
