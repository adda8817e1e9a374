import Foundation
import Testing
import TiltCore

/// The stand-ins for what the programs took from the full Foundation (they link FoundationEssentials only) give what
/// Foundation gave, checked here against Foundation itself, which the tests may import.
@Suite struct FoundationEssentialsStandInTests {
    /// Paths with what NSString answers for them: deletingLastPathComponent, lastPathComponent, pathExtension.
    /// (A table, not NSString itself: swift-corelibs-foundation's deletingLastPathComponent crashes on a path with
    /// no slash, which is how `tiltfx render --out x/` crashed, issue 28.)
    static let paths: [(path: String, folder: String, name: String, fileExtension: String)] = [
        ("/a/b", "/a", "b", ""), ("/a/b/", "/a", "b", ""), ("/a", "/", "a", ""), ("/", "/", "/", ""), ("", "", "", ""),
        ("a", "", "a", ""), ("a/", "", "a", ""), ("a/b", "a", "b", ""), ("./x.png", ".", "x.png", "png"),
        (".", "", ".", ""), ("./", "", ".", ""), ("/tmp/nope/", "/tmp", "nope", ""), ("new.png", "", "new.png", "png"),
        ("/proc/x.png", "/proc", "x.png", "png"), ("a//b", "a", "b", ""), ("/a/b.tar.gz", "/a", "b.tar.gz", "gz"),
        ("a/.hidden", "a", ".hidden", ""), ("..", "", "..", ""), ("../x", "..", "x", ""),
    ]

    @Test("PathText answers as NSString's path methods", arguments: paths)
    func pathText(_ path: String, _ folder: String, _ name: String, _ fileExtension: String) {
        #expect(PathText.folder(of: path) == folder)
        #expect(PathText.name(of: path) == name)
        #expect(PathText.fileExtension(of: path) == fileExtension)
    }

    @Test("PathText.folder is NSString.deletingLastPathComponent for absolute paths", arguments: paths)
    func folderAgainstFoundation(_ path: String, _ folder: String, _ name: String, _ fileExtension: String) {
        guard path.hasPrefix("/") else { return }
        #expect(PathText.folder(of: path) == (path as NSString).deletingLastPathComponent)
        #expect(PathText.name(of: path) == (path as NSString).lastPathComponent)
    }

    @Test("PathText.join is NSString.appendingPathComponent")
    func join() {
        #expect(PathText.join("/a", "frame-00001.png") == "/a/frame-00001.png")
        #expect(PathText.join("/a/", "f.png") == "/a/f.png")
        #expect(PathText.join("a", "f.png") == "a/f.png")
        #expect(PathText.join("/", "f.png") == "/f.png")
        #expect(PathText.join("", "f.png") == "f.png")
    }

    @Test("String(printf:) is String(format:) for numbers")
    func printf() {
        #expect(String(printf: "%.1f s", 2.25) == String(format: "%.1f s", 2.25))
        #expect(
            String(printf: "%7.2f|%g|%.9g", 3.14159, 0.5, 1.0 / 3)
                == String(format: "%7.2f|%g|%.9g", 3.14159, 0.5, 1.0 / 3))
        #expect(String(printf: "%d clients, %.0f %%", 12, 99.6) == String(format: "%d clients, %.0f %%", 12, 99.6))
        let long = String(printf: "%0200.3f", 1.5)
        #expect(long == String(format: "%0200.3f", 1.5) && long.count == 200)
    }

    @Test("trimmingWhitespace is trimmingCharacters(in: .whitespacesAndNewlines) ")
    func trimming() {
        for text in ["  a b \t\r\n", "", "   ", "x", "\r\nkey = value\r", " é ", "\u{00A0}x\u{00A0}"] {
            #expect(text.trimmingWhitespace == text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect("a = b".dropFirst(3).trimmingWhitespace == "b")
    }

    @Test("padded(to:) is padding(toLength:withPad:startingAt:) with spaces")
    func padding() {
        for (text, width) in [("ok", 5), ("holo-card", 4), ("", 3), ("abc", 3)] {
            #expect(text.padded(to: width) == text.padding(toLength: width, withPad: " ", startingAt: 0))
        }
    }

    @Test("errorReason gives the system's words for a file error")
    func reasons() throws {
        let missing = "/nonexistent-\(UUID().uuidString)/file"
        let error = try #require(throws: (any Error).self) { try Data(contentsOf: URL(fileURLWithPath: missing)) }
        #expect(errorReason(error) == String(cString: strerror(ENOENT)))
        #expect(errorReason(POSIXError(.EACCES)) == String(cString: strerror(EACCES)))
    }

    @Test("startThread runs its body on a named thread; ThreadCondition wakes a waiter")
    func threads() {
        final class Box: @unchecked Sendable {
            let condition = ThreadCondition()
            var name = ""
            var done = false
        }
        let box = Box()
        startThread(name: "tilt-test-thread") {
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            box.condition.lock()
            box.name = name.trimmingWhitespace
            box.done = true
            box.condition.signal()
            box.condition.unlock()
        }
        box.condition.lock()
        while !box.done { box.condition.wait() }
        box.condition.unlock()
        #expect(box.name == "tilt-test-threa")
    }
}
