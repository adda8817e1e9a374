import Foundation
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// Debian's `chromium`, headless, driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: the
/// protocol's JSON messages, each ended by a NUL byte, on the browser's file descriptors 3 and 4; a shell maps them
/// to this process's pipes, so no WebSocket client is needed). WebGL2 comes from SwiftShader through ANGLE, so no GPU.
final class HeadlessChromium {
    /// The browser's path, when one is installed.
    static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Whether the tests that need a browser can run here.
    static var isAvailable: Bool { path != nil }

    private let process = Process()
    private let toBrowser = Pipe()
    private let fromBrowser = Pipe()
    private let received = ByteQueue()
    private let profile: URL
    private var nextID = 1
    private var session: String?

    /// Starts the browser with an empty profile, a 1280×720 window and one blank tab attached.
    init() throws {
        guard let path = Self.path else { throw TestError("chromium is not installed; scripts/bootstrap installs it") }
        profile = TestPaths.temporaryDirectory("tilt-chromium")
        let flags = [
            "--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
            "--remote-debugging-pipe", "--user-data-dir=\(profile.path)", "--window-size=1280,720",
            "--no-first-run", "--disable-gpu-sandbox", "about:blank",
        ]
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // fd 3 reads our commands (the shell's stdin), fd 4 writes the answers (its stdout); the browser's own
        // stdout and stderr are not wanted.
        process.arguments =
            [
                "-c", "exec \"$0\" \"$@\" 3<&0 4>&1 0</dev/null 1>/dev/null 2>/dev/null", path,
            ] + flags
        process.standardInput = toBrowser
        process.standardOutput = fromBrowser
        let queue = received
        fromBrowser.fileHandleForReading.readabilityHandler = { handle in queue.append(handle.availableData) }
        try process.run()
        let target = try call("Target.createTarget", ["url": "about:blank"], timeout: 30)
        guard let targetId = target["targetId"] as? String else { throw TestError("no target: \(target)") }
        let attached = try call("Target.attachToTarget", ["targetId": targetId, "flatten": true])
        session = attached["sessionId"] as? String
    }

    deinit {
        fromBrowser.fileHandleForReading.readabilityHandler = nil
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: profile)
    }

    /// Sends one protocol command (to the attached tab, unless `browser`) and returns its `result`.
    /// - Throws: ``TestError`` with the protocol's error, or when no answer comes in `timeout` seconds.
    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:], browser: Bool = false, timeout: Double = 60) throws
        -> [String: Any]
    {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if !browser, let session { message["sessionId"] = session }
        var data = try JSONSerialization.data(withJSONObject: message)
        data.append(0)
        toBrowser.fileHandleForWriting.write(data)
        let deadline = Deadline(seconds: timeout)
        while !deadline.hasPassed {
            guard let next = received.nextMessage(timeout: deadline.remaining) else { break }
            guard let object = try? JSONSerialization.jsonObject(with: next) as? [String: Any],
                object["id"] as? Int == id
            else { continue }  // events and other answers
            if let error = object["error"] as? [String: Any] { throw TestError("\(method): \(error)") }
            return object["result"] as? [String: Any] ?? [:]
        }
        throw TestError("no answer to \(method) from chromium within \(timeout) s")
    }

    /// Opens `url` in the tab.
    func open(_ url: String) throws {
        try call("Page.navigate", ["url": url])
    }

    /// Evaluates `expression` in the page, awaiting a Promise, and returns its value (JSON-compatible).
    /// - Throws: ``TestError`` with the page's exception.
    @discardableResult
    func evaluate(_ expression: String, timeout: Double = 60) throws -> Any? {
        let result = try call(
            "Runtime.evaluate",
            ["expression": expression, "awaitPromise": true, "returnByValue": true, "timeout": timeout * 1000],
            timeout: timeout + 5)
        if let exception = result["exceptionDetails"] as? [String: Any] {
            let text = (exception["exception"] as? [String: Any])?["description"] ?? exception["text"] ?? exception
            throw TestError("the page threw: \(text)")
        }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Waits until the page has published `window.tiltTest` (its test mode), then returns what that Promise gives.
    func testResult(timeout: Double = 90) throws -> [String: Any] {
        let deadline = Deadline(seconds: timeout)
        var ready = false
        while !ready && !deadline.hasPassed {
            // A navigation still under way destroys the context: try again.
            ready = (try? evaluate("typeof window.tiltTest === 'object'", timeout: 5)) as? Bool ?? false
            if !ready { usleep(100_000) }
        }
        guard ready else { throw TestError("the page published no window.tiltTest within \(timeout) s") }
        let text = try evaluate(
            "window.tiltTest.then((r) => JSON.stringify(r))", timeout: deadline.remaining)
        guard let text = text as? String, let data = text.data(using: .utf8),
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw TestError("window.tiltTest gave no object") }
        return object
    }
}

/// Bytes from the browser, split into NUL-terminated messages; filled by the pipe's reader, read by the test.
private final class ByteQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var bytes = Data()
    private var ended = false

    func append(_ data: Data) {
        condition.lock()
        if data.isEmpty { ended = true } else { bytes.append(data) }
        condition.broadcast()
        condition.unlock()
    }

    /// The next whole message, or `nil` after `timeout` seconds or at the end of the stream.
    func nextMessage(timeout: Double) -> Data? {
        let deadline = Deadline(seconds: max(0, timeout))
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let end = bytes.firstIndex(of: 0) {
                let message = bytes[bytes.startIndex..<end]
                bytes = Data(bytes[(end + 1)...])
                return Data(message)
            }
            if ended || !condition.wait(until: Date(timeIntervalSinceNow: deadline.remaining)) { return nil }
        }
    }
}
