import Foundation

/// A fake Linux IIO sysfs tree and `/dev` folder for testing libiio's real local backend.
///
/// The tree lives in a temporary folder (`ROOT/sys/iio/devices/iio:deviceN/…`, `ROOT/dev/iio:deviceN` as a FIFO).
/// ``run(_:environment:)`` starts a child in a private user and mount namespace
/// (`unshare -rm`) where `ROOT/sys` is bind-mounted over `/sys/bus` and `ROOT/dev` over `/dev`, so libiio sees the
/// fake devices while the test still reads and writes the same files from outside (e.g. `buffer/enable`, the FIFO).
/// Bind mounts rather than tmpfs so the test and the child share the tree. Attribute files end in a newline as
/// sysfs files do; libiio writes values back with a trailing NUL, which ``read(_:)`` strips. A FIFO never refuses a
/// reader: ``start(_:environment:exclusiveNode:holder:)`` puts a FUSE file in its place that does (`EBUSY`).
public final class FakeIIOTree: Sendable {
    /// The temporary folder holding `sys/` and `dev/`.
    public let root: URL

    /// Whether this machine lets an unprivileged process make a user + mount namespace (`unshare -rm true`).
    public static let namespacesWork: Bool = {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        p.arguments = ["-rm", "sh", "-c", "mount -t tmpfs none /mnt"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }()

    /// Creates an empty tree in a fresh temporary folder.
    public init() throws {
        root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "tilt-iio-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("sys/iio/devices"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("dev"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("udev"), withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The folder of `iio:deviceN` as the test sees it.
    public func devicePath(_ n: Int) -> URL { root.appendingPathComponent("sys/iio/devices/iio:device\(n)") }
    /// The FIFO standing for `/dev/iio:deviceN`.
    public func fifoPath(_ n: Int) -> String { root.appendingPathComponent("dev/iio:device\(n)").path }
    /// The folder to pass as `TILT_UDEV_DATA_DIR` (files `+iio:iio:deviceN`).
    public var udevDataDirectory: String { root.appendingPathComponent("udev").path }

    /// Writes `ROOT/sys/iio/devices/iio:deviceN/RELATIVE` with a trailing newline.
    public func write(device n: Int, _ relative: String, _ value: String) throws {
        let url = devicePath(n).appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((value + "\n").utf8).write(to: url)
    }

    /// Reads an attribute of `iio:deviceN`, without newlines and NULs; `nil` when it does not exist.
    public func read(device n: Int, _ relative: String) -> String? {
        guard let d = FileManager.default.contents(atPath: devicePath(n).appendingPathComponent(relative).path) else {
            return nil
        }
        return String(decoding: d, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "\n\0 "))
    }

    /// One scan channel: kind (`accel`, `anglvel`, `magn`), its `_type` text.
    public struct ScanLayout: Sendable {
        public var kinds: [String]
        public var type: String
        public var timestamp: Bool
        public init(kinds: [String], type: String, timestamp: Bool = true) {
            self.kinds = kinds
            self.type = type
            self.timestamp = timestamp
        }
    }

    /// Adds a device with `kinds` (x/y/z `_raw` each), `name`, optional `label`, shared `_scale` / `_offset`, a
    /// mount matrix, and — when `scan` is given — scan elements, a buffer folder, a trigger and a FIFO.
    public func addDevice(
        _ n: Int, name: String, label: String? = nil, kinds: [String], scale: [String: String] = [:],
        offset: [String: String] = [:], raw: [String: [Int]] = [:], mountMatrix: String? = nil,
        rates: String? = nil, scan: ScanLayout? = nil
    ) throws {
        try write(device: n, "name", name)
        if let label { try write(device: n, "label", label) }
        for k in kinds {
            for (i, a) in ["x", "y", "z"].enumerated() {
                try write(device: n, "in_\(k)_\(a)_raw", "\(raw[k]?[i] ?? 0)")
            }
            if let s = scale[k] { try write(device: n, "in_\(k)_scale", s) }
            if let o = offset[k] { try write(device: n, "in_\(k)_offset", o) }
        }
        if let mountMatrix { try write(device: n, "in_\(kinds[0])_mount_matrix", mountMatrix) }
        if let rates {
            try write(device: n, "sampling_frequency_available", rates)
            try write(device: n, "sampling_frequency", String(rates.split(separator: " ").last ?? "10"))
        }
        guard let scan else { return }
        var index = 0
        for k in scan.kinds {
            for a in ["x", "y", "z"] {
                try write(device: n, "scan_elements/in_\(k)_\(a)_en", "0")
                try write(device: n, "scan_elements/in_\(k)_\(a)_index", "\(index)")
                try write(device: n, "scan_elements/in_\(k)_\(a)_type", scan.type)
                index += 1
            }
        }
        if scan.timestamp {
            try write(device: n, "scan_elements/in_timestamp_en", "0")
            try write(device: n, "scan_elements/in_timestamp_index", "\(index)")
            try write(device: n, "scan_elements/in_timestamp_type", "le:s64/64>>0")
            try write(device: n, "current_timestamp_clock", "realtime")
        }
        try write(device: n, "buffer/enable", "0")
        try write(device: n, "buffer/length", "0")
        try write(device: n, "buffer/watermark", "1")
        try write(device: n, "trigger/current_trigger", "")
        let trig = root.appendingPathComponent("sys/iio/devices/trigger\(n)")
        try FileManager.default.createDirectory(at: trig, withIntermediateDirectories: true)
        try Data("\(name)-dev\(n)\n".utf8).write(to: trig.appendingPathComponent("name"))
        if mkfifo(fifoPath(n), 0o600) != 0 && errno != EEXIST { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    /// Removes `iio:deviceN` (as an unplug would), keeping a copy to ``restoreDevice(_:)``.
    public func removeDevice(_ n: Int) throws {
        let saved = root.appendingPathComponent("saved-\(n)")
        try? FileManager.default.removeItem(at: saved)
        try FileManager.default.moveItem(at: devicePath(n), to: saved)
    }

    /// Puts back a device taken away by ``removeDevice(_:)``.
    public func restoreDevice(_ n: Int) throws {
        try FileManager.default.moveItem(at: root.appendingPathComponent("saved-\(n)"), to: devicePath(n))
    }

    /// Packs one scan as the kernel would: each value in its storage size, aligned to that size, then an 8-byte
    /// aligned `le:s64` timestamp in nanoseconds.
    public static func pack(_ values: [Int64], type: String, timestampNs: Int64?) -> [UInt8] {
        let t = type.split(separator: ":")
        let bigEndian = t[0] == "be"
        let body = t[1]
        let bits = Int(body.dropFirst().prefix { $0 != "/" })!
        let storage = Int(body.split(separator: "/")[1].prefix { $0.isNumber })!
        let shift = Int(body.split(separator: ">>")[1])!
        let size = storage / 8
        var out: [UInt8] = []
        for v in values {
            while out.count % size != 0 { out.append(0) }
            let mask: UInt64 = bits >= 64 ? ~0 : (1 << UInt64(bits)) - 1
            let word = (UInt64(bitPattern: v) & mask) << UInt64(shift)
            var bytes = (0..<size).map { UInt8(truncatingIfNeeded: word >> UInt64(8 * $0)) }
            if bigEndian { bytes.reverse() }
            out += bytes
        }
        if let ts = timestampNs {
            while out.count % 8 != 0 { out.append(0) }
            out += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: ts) >> UInt64(8 * $0)) }
        }
        return out
    }

    /// Writes scans into the FIFO of `iio:deviceN`, waiting up to `timeout` seconds for a reader to open it.
    public func feed(_ n: Int, scans: [[UInt8]], interval: Double = 0.005, timeout: Double = 10) throws {
        let deadline = Deadline(seconds: timeout)
        var fd: Int32 = -1
        while fd < 0 {
            fd = open(fifoPath(n), O_WRONLY | O_NONBLOCK)
            if fd < 0 {
                guard errno == ENXIO, !deadline.hasPassed else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
                usleep(10_000)
            }
        }
        defer { close(fd) }
        for s in scans {
            let written = s.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            guard written == s.count else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            usleep(UInt32(interval * 1e6))
        }
    }

    /// Starts `arguments` (an executable path and its arguments) inside the namespace.
    public func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Child {
        try start(arguments, environment: environment, beforeDev: "", afterDev: "")
    }

    /// Starts `arguments` inside the namespace with shell commands (`$0` is ``root``, each ending in `&&`) run
    /// before the fake `/dev` is mounted (while `/dev/null` is still there) and after.
    func start(_ arguments: [String], environment: [String: String], beforeDev: String, afterDev: String) throws
        -> Child
    {
        let script =
            "mount --bind \"$0/sys\" /sys/bus && \(beforeDev) mount --bind \"$0/dev\" /dev && \(afterDev) exec \"$@\""
        let started = try PrivateNamespace.start(
            script: script, root: root, arguments: arguments, environment: environment)
        return Child(process: started.process, stdout: started.stdout, stderr: started.stderr)
    }

    /// Runs `arguments` inside the namespace to completion.
    public func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Child.Result {
        try start(arguments, environment: environment).wait()
    }

    /// A child started in the namespace, its output read as it runs.
    public struct Child: @unchecked Sendable {
        // Safe: the process is used only by the test that started the child, from one task.
        private let collecting: ChildProcess.Collecting

        init(process: Process, stdout: Pipe, stderr: Pipe) {
            collecting = ChildProcess.Collecting(process, stdout: stdout, stderr: stderr)
        }

        /// The running process.
        public var process: Process { collecting.process }

        /// What it has printed on standard error so far.
        public var stderrSoFar: String { collecting.stderrSoFar }

        /// What a finished child printed and how it ended.
        public typealias Result = ChildProcess

        /// Waits for the child and returns all it printed.
        public func wait() throws -> Result {
            try collecting.finish(timeout: 120)
        }
    }
}
