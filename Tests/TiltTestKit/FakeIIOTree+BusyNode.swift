import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension FakeIIOTree {
    /// Whether a FUSE device node can stand in for `/dev/iio:deviceN`: `/dev/fuse` is usable and Debian's
    /// `python3-fusepy` is installed (see `Tests/Fixtures/fake-iio-node.py`).
    public static let busyNodesWork: Bool = {
        guard namespacesWork, access("/dev/fuse", R_OK | W_OK) == 0 else { return false }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", "import fusepy"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }()

    /// The file the holder's process id is written to by ``start(_:environment:exclusiveNode:holder:)``.
    public var holderPIDFile: String { root.appendingPathComponent("holder.pid").path }

    /// Starts `arguments` in the namespace with `/dev/iio:deviceN` replaced by a FUSE file that, as the kernel's
    /// IIO character device does, lets one process open it at a time and refuses the next with `EBUSY`; reads are
    /// served from the device's FIFO (``feed(_:scans:interval:timeout:)`` works as before).
    ///
    /// - Parameter holder: Also start, in the namespace, a `sleep` that holds the node open (as
    ///   `iio-sensor-proxy` would) until it is killed; its process id is in ``holderPIDFile``.
    public func start(
        _ arguments: [String], environment: [String: String] = [:], exclusiveNode n: Int, holder: Bool
    ) throws -> Child {
        let server = TestPaths.fixture("fake-iio-node.py")
        let node = "/dev/iio:device\(n)"
        // The server watches this shell's pid (which becomes the child's) and ends with it.
        let beforeDev = """
            mkdir -p "$0/fuse\(n)" && { /usr/bin/python3 "\(server)" "$0/fuse\(n)" "$0/dev/iio:device\(n)" $$ \
            >"$0/fuse\(n).log" 2>&1 & } && i=0 && while [ ! -e "$0/fuse\(n)/node" ] && [ $i -lt 200 ]; do \
            sleep 0.05; i=$((i+1)); done &&
            """
        var afterDev = #"mount --bind "$0/fuse\#(n)/node" "\#(node)" && "#
        if holder {
            // bash, not sh: dash points a background job's stdin at /dev/null, which the fake /dev lacks.
            afterDev += """
                 /bin/bash -c 'sleep 600 <"$1" >"$2.log" 2>&1 & echo $! >"$2"' holder "\(node)" \
                "\(holderPIDFile)" &&
                """
        }
        return try start(arguments, environment: environment, beforeDev: beforeDev, afterDev: afterDev)
    }

    /// The process id written by a holder started with ``start(_:environment:exclusiveNode:holder:)``.
    public func holderPID(timeout: Double = 10) -> pid_t? {
        let deadline = Deadline(seconds: timeout)
        repeat {
            if let text = try? String(contentsOfFile: holderPIDFile, encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return pid
            }
            usleep(20_000)
        } while !deadline.hasPassed
        return nil
    }
}
