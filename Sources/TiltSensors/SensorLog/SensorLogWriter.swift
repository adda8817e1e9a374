import CZlib
import TiltCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a sensor log in the format ``SensorLogReader`` reads, gzip-compressed when the path ends in `.gz`.
///
/// Every write is checked: a full disk or a vanished folder throws at once with the reason, so a recording never
/// loses data silently. ``flush()`` pushes buffered rows to the file (and ends a gzip block) so that what was
/// written survives a crash; ``close()`` finishes the file.
package final class SensorLogWriter {
    package let path: String
    package let hasMagnetometer: Bool
    private var file: gzFile?
    private var line = ""
    /// Rows written so far.
    package private(set) var rowCount = 0
    /// Gap markers written so far.
    package private(set) var gapCount = 0

    /// Creates (or truncates) the log at `path` and writes its metadata comment and header.
    ///
    /// - Parameters:
    ///   - metadata: `key=value` pairs for the first comment line (e.g. `sampling_rate_hz`, `device`, `source`).
    ///   - hasMagnetometer: Whether to write `mag_x..z` columns.
    package init(path: String, metadata: [(String, String)] = [], hasMagnetometer: Bool) throws(SensorLogError) {
        self.path = path
        self.hasMagnetometer = hasMagnetometer
        let mode = path.hasSuffix(".gz") ? "wb6" : "wT"
        guard let f = gzopen(path, mode) else {
            let reason = String(cString: strerror(errno))
            throw SensorLogError(
                path: path, message: "cannot create the log (\(reason)); check that the folder exists and is writable")
        }
        file = f
        if !metadata.isEmpty {
            try write("# " + metadata.map { "\($0.0)=\($0.1)" }.joined(separator: "; ") + "\n")
        }
        var header = "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z"
        if hasMagnetometer { header += ",mag_x,mag_y,mag_z" }
        try write(header + "\n")
    }

    deinit {
        if let file { gzclose(file) }
    }

    /// Appends one sample. Values are written with enough digits to read back exactly.
    package func append(_ s: MotionSample) throws(SensorLogError) {
        line.removeAll(keepingCapacity: true)
        line += "\(s.time),\(s.gyro.x),\(s.gyro.y),\(s.gyro.z),\(s.accel.x),\(s.accel.y),\(s.accel.z)"
        if hasMagnetometer {
            if let m = s.mag { line += ",\(m.x),\(m.y),\(m.z)" } else { line += ",nan,nan,nan" }
        }
        line += "\n"
        try write(line)
        rowCount += 1
    }

    /// Marks a gap before the next row: samples lost (``SampleGap/count``, the times of the first and last lost
    /// one) or a break in the stream (a reconnection), as a `# gap …` comment line (docs/log-format.md). Readers
    /// that know markers do not fuse across it; older ones skip it as a comment.
    package func appendGap(_ gap: SampleGap) throws(SensorLogError) {
        try write(Self.gapLine(gap))
        gapCount += 1
    }

    /// The marker line for `gap`, with its newline.
    package static func gapLine(_ gap: SampleGap) -> String {
        var parts: [String] = []
        if let count = gap.count { parts.append("count=\(count)") }
        if let first = gap.first { parts.append("first=\(first)") }
        if let last = gap.last { parts.append("last=\(last)") }
        if let reason = gap.reason {
            // One line, and `;` separates the pairs.
            let plain = String(reason.map { $0 == ";" || $0 == "\n" || $0 == "\r" ? "," : $0 })
            parts.append("reason=\(plain)")
        }
        return parts.isEmpty ? "# gap\n" : "# gap " + parts.joined(separator: "; ") + "\n"
    }

    /// Pushes buffered rows to the file.
    package func flush() throws(SensorLogError) {
        guard let file else { return }
        let rc = gzflush(file, Z_SYNC_FLUSH)
        if rc != Z_OK { throw error("cannot flush the log") }
    }

    /// Finishes and closes the file. Further appends throw.
    package func close() throws(SensorLogError) {
        guard let f = file else { return }
        file = nil
        let rc = gzclose(f)
        if rc != Z_OK {
            throw SensorLogError(
                path: path, message: "cannot finish the log (\(String(cString: strerror(errno)))); the disk may be full"
            )
        }
    }

    private func write(_ text: String) throws(SensorLogError) {
        guard let file else { throw SensorLogError(path: path, message: "the log is already closed") }
        var text = text
        let ok = text.withUTF8 { buf -> Bool in
            guard buf.count > 0 else { return true }
            return gzwrite(file, buf.baseAddress, UInt32(buf.count)) == Int32(buf.count)
        }
        if !ok { throw error("cannot write the log") }
    }

    private func error(_ what: String) -> SensorLogError {
        var code: Int32 = 0
        var reason = gzerror(file, &code).map { String(cString: $0) } ?? ""
        if code == Z_ERRNO || reason.isEmpty { reason = String(cString: strerror(errno)) }
        return SensorLogError(
            path: path, message: "\(what) (\(reason)); the disk may be full — free space and record again")
    }
}
