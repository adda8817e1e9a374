import FoundationEssentials
import Logging
import TiltCore

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's log handler: journald-style lines when its standard error goes to the journal, else the usual
/// timestamped lines.
///
/// In ``Format/journal`` each line is `<N>message key=value…` with the syslog priority `N` in front, as
/// sd-daemon(3) describes, and no timestamp (the journal adds its own): `trace`/`debug` → 7, `info` → 6,
/// `notice` → 5, `warning` → 4, `error` → 3, `critical` → 2. The level is read from a shared ``LogLevelControl``,
/// so a reload changes it for every logger at once.
package struct JournalLogHandler: LogHandler {
    /// How lines are written.
    package enum Format: String, Sendable, CaseIterable {
        /// `<N>message key=value` for the journal.
        case journal
        /// `TIMESTAMP LEVEL LABEL: message key=value` for a terminal or a file.
        case plain
        /// ``journal`` when `$JOURNAL_STREAM` names this process's standard error (systemd sets it), else ``plain``.
        case auto

        /// ``auto`` resolved for this process: whether standard error is the stream `$JOURNAL_STREAM` names.
        package func resolved(environment: [String: String] = ProcessInfo.processInfo.environment) -> Format {
            guard self == .auto else { return self }
            guard let stream = environment["JOURNAL_STREAM"], !stream.isEmpty else { return .plain }
            let parts = stream.split(separator: ":")
            guard parts.count == 2, let node = FileNode(fstat: STDERR_FILENO) else { return .plain }
            return UInt64(parts[0]) == node.device && UInt64(parts[1]) == node.inode ? .journal : .plain
        }
    }

    package let label: String
    package let format: Format
    private let control: LogLevelControl
    package var metadata: Logger.Metadata = [:]

    /// A handler writing to standard error in `format` (``Format/auto`` is resolved here).
    package init(label: String, format: Format, level: LogLevelControl) {
        self.label = label
        self.format = format.resolved()
        control = level
    }

    package var logLevel: Logger.Level {
        get { control.level }
        set { control.level = newValue }
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// The syslog priority of `level` (sd-daemon(3) prefixes).
    package static func priority(of level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    package func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        let pairs = all.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted("\($0.value)"))" }
        let message = "\(event.message)"
        var line: String
        switch format {
        case .journal, .auto:
            line = "<\(Self.priority(of: event.level))>" + message.replacing("\n", with: " ")
            if !pairs.isEmpty { line += " " + pairs.joined(separator: " ") }
        case .plain:
            line = "\(Self.timestamp()) \(event.level) \(label): \(message)"
            if !pairs.isEmpty { line += " " + pairs.joined(separator: " ") }
        }
        line += "\n"
        var bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { raw in
                write(STDERR_FILENO, raw.baseAddress! + offset, raw.count - offset)
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
    }

    /// `value`, in double quotes when it holds spaces, quotes or `=` (so a line splits back into pairs).
    private static func quoted(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\n" }) else {
            return value
        }
        let escaped = value.replacing("\\", with: "\\\\")
            .replacing("\"", with: "\\\"").replacing("\n", with: "\\n")
        return "\"\(escaped)\""
    }

    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
