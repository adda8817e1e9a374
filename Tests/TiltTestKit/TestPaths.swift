import Foundation

/// Where the tests find the repository's fixtures and the built executables.
public enum TestPaths {
    /// The repository's root, found from this file's path.
    public static let repositoryRoot: URL = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }()

    /// `Tests/Fixtures/NAME`.
    public static func fixture(_ name: String) -> String {
        repositoryRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(name).path
    }

    /// The 60-second BROAD excerpt bundled with the repository.
    public static var broadExcerpt: String { fixture("broad-01-excerpt.csv.gz") }

    /// The folder of built products: `$TILT_BIN_DIR`, else the folder of the running test bundle (SwiftPM puts
    /// executables and the test runner side by side in `.build/<config>/`).
    public static var binDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["TILT_BIN_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        // Walk up out of a bundle (`x.xctest/Contents/MacOS/x` on Darwin, `x.xctest` on Linux).
        while url.path != "/" {
            url.deleteLastPathComponent()
            if !url.path.contains(".xctest") { break }
        }
        return url
    }

    /// The path of the built executable `name` (e.g. `tiltd`).
    public static func executable(_ name: String) -> String {
        binDirectory.appendingPathComponent(name).path
    }

    /// A fresh, short temporary folder (Unix socket paths must stay under 108 bytes).
    public static func temporaryDirectory(_ prefix: String = "tilt") -> URL {
        let template = "/tmp/\(prefix)-XXXXXX"
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "cannot create a temporary folder in /tmp")
        return URL(fileURLWithPath: String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
