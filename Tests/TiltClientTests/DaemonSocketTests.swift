import Foundation
import Testing
import TiltClient
import TiltCore
import TiltWire

#if canImport(Glibc)
    import Glibc
#endif

/// Connecting to the daemon's socket: each failure is of a kind a caller can branch on.
@Suite
struct DaemonSocketTests {
    /// A fresh folder for sockets, short enough for `sun_path`.
    static func folder() throws -> String {
        var template = Array("/tmp/tilt-client-XXXXXX".utf8CString)
        let made = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) })
        return String(cString: made)
    }

    /// A Unix socket bound at `path`; listening when `listen` is set. Returns its descriptor.
    static func bound(_ path: String, listen shouldListen: Bool) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(rc == 0)
        if shouldListen { try #require(listen(fd, 4) == 0) }
        return fd
    }

    @Test("no socket file: the daemon is not running, and the message says how to start it")
    func missingSocket() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/tiltd.sock"
        #expect {
            _ = try DaemonSocket.connect(path: path)
        } throws: { error in
            guard let error = error as? TiltClientError else { return false }
            return error.kind == .daemonNotRunning && error.message.contains(path)
                && error.message.contains("is tiltd running? Start it with `tiltd`, or pass --socket PATH")
        }
    }

    @Test("a socket file nobody listens on (a daemon that died) also reads as not running")
    func staleSocket() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fd = try Self.bound(dir + "/tiltd.sock", listen: false)
        defer { close(fd) }
        #expect(throws: TiltClientError.self) { _ = try DaemonSocket.connect(path: dir + "/tiltd.sock") }
        do {
            _ = try DaemonSocket.connect(path: dir + "/tiltd.sock")
        } catch {
            #expect(error.kind == .daemonNotRunning, "\(error)")
        }
    }

    @Test("a listening socket connects")
    func listening() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try Self.bound(dir + "/tiltd.sock", listen: true)
        defer { close(server) }
        let fd = try DaemonSocket.connect(path: dir + "/tiltd.sock")
        #expect(fd >= 0)
        close(fd)
    }

    @Test(
        "a socket this user may not open is a permission problem",
        .enabled(if: getuid() != 0, "root may open any socket"))
    func permissionDenied() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try Self.bound(dir + "/tiltd.sock", listen: true)
        defer { close(server) }
        chmod(dir + "/tiltd.sock", 0)
        do {
            let fd = try DaemonSocket.connect(path: dir + "/tiltd.sock")
            close(fd)
            Issue.record("connected to a socket with mode 000")
        } catch {
            #expect(error.kind == .permissionDenied, "\(error)")
        }
    }

    @Test("a path too long for sun_path is refused before connecting")
    func tooLong() {
        let path = "/tmp/" + String(repeating: "x", count: 200)
        do {
            _ = try DaemonSocket.connect(path: path)
            Issue.record("connected to an impossible path")
        } catch {
            #expect(error.kind == .unusableSocket)
            #expect(error.message.contains("too long"))
        }
    }

    @Test("a command's wire bytes are its JSON line and a newline")
    func lineBytes() throws {
        #expect(ClientCommand.status.lineBytes == Array(#"{"cmd":"status"}"#.utf8) + [0x0A])
        let watch = ClientCommand.watch(enable: true, rate: 30, raw: false)
        #expect(watch.lineBytes == Array((watch.jsonLine + "\n").utf8))
        #expect(try ClientCommand.decode(watch.lineBytes.dropLast()) == watch)
    }
}
