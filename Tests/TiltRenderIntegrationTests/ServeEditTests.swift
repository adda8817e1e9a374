import Foundation
import Testing
import TiltTestKit

/// `/edit` against a real `tiltfx serve`, compiling with Mesa's GL headless (llvmpipe).
@Suite(.serialized)
struct ServeEditTests {
    /// A server on a private copy of holo-card and foil, and an `/edit` connection to it.
    private static func start(_ directory: URL) throws -> (ServeProcess, WebSocketTestClient) {
        let serve = try ServeProcess(socket: directory.appendingPathComponent("none.sock").path, in: directory)
        let edit = try serve.socket("/edit", origin: "http://127.0.0.1:\(serve.port)")
        try #require(edit.status == 101)
        return (serve, edit)
    }

    private static func ask(_ edit: WebSocketTestClient, _ message: [String: Any]) throws -> [String: Any]? {
        let data = try JSONSerialization.data(withJSONObject: message)
        try edit.send(text: String(decoding: data, as: UTF8.self))
        return ServeProcess.object(try edit.receiveText(timeout: 60))
    }

    @Test func listsAndOpensPresetsWithTheirFilesAndProgram() throws {
        let directory = TestPaths.temporaryDirectory("srv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (serve, edit) = try Self.start(directory)
        defer { withExtendedLifetime(serve) {} }  // the server lives as long as the test
        let list = try Self.ask(edit, ["cmd": "list"])
        #expect(list?["class"] as? String == "presets")
        let names = (list?["presets"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names?.contains("foil") == true && names?.contains("holo-card") == true)

        let open = try Self.ask(edit, ["cmd": "open", "preset": "holo-card"])
        #expect(open?["class"] as? String == "preset")
        let files = open?["files"] as? [String: String]
        #expect(files.map { Set($0.keys) } == ["preset.json", "card.glsl"])
        let program = open?["program"] as? [String: Any]
        let passes = program?["passes"] as? [[String: Any]]
        #expect(passes?.count == 2)
        #expect((passes?.first?["fragment"] as? String)?.hasPrefix("#version 300 es") == true)
        #expect(passes?.first?["static"] as? Bool == true)
        let textures = program?["textures"] as? [[String: Any]]
        #expect(textures?.first?["url"] as? String == "/presets/holo-card/foil-mask.png")
        #expect(textures?.first?["unit"] as? Int == 8)
    }

    @Test func compileAnswersOkOrTheBrokenFileAndLine() throws {
        let directory = TestPaths.temporaryDirectory("srv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (serve, edit) = try Self.start(directory)
        let card = try String(
            contentsOf: serve.presets.appendingPathComponent("holo-card/card.glsl"), encoding: .utf8)
        let good = try Self.ask(edit, ["cmd": "compile", "preset": "holo-card", "files": ["card.glsl": card]])
        #expect(good?["class"] as? String == "compiled")
        #expect(good?["ok"] as? Bool == true)
        #expect(good?["ms"] as? Double != nil)
        #expect((good?["program"] as? [String: Any])?["passes"] != nil)

        var lines = card.components(separatedBy: "\n")
        lines.insert("float broken = undefinedThing * 2.0;", at: 41)  // line 42
        let bad = try Self.ask(
            edit, ["cmd": "compile", "preset": "holo-card", "files": ["card.glsl": lines.joined(separator: "\n")]])
        #expect(bad?["ok"] as? Bool == false)
        let errors = bad?["errors"] as? [[String: Any]] ?? []
        #expect(!errors.isEmpty)
        #expect(errors.first?["file"] as? String == "card.glsl")
        #expect(errors.first?["line"] as? Int == 42)
        #expect((errors.first?["message"] as? String)?.contains("undefinedThing") == true)
        // Nothing was written.
        #expect(
            try String(contentsOf: serve.presets.appendingPathComponent("holo-card/card.glsl"), encoding: .utf8)
                == card)

        let json = "{\n  \"description\": \"x\",\n  \"effects\": [ ,\n}\n"
        let badJSON = try Self.ask(edit, ["cmd": "compile", "preset": "foil", "files": ["preset.json": json]])
        let jsonError = (badJSON?["errors"] as? [[String: Any]])?.first
        #expect(badJSON?["ok"] as? Bool == false)
        #expect(jsonError?["file"] as? String == "preset.json")
        #expect(jsonError?["line"] as? Int == 3)
        #expect((jsonError?["message"] as? String)?.contains(directory.path) == false)
    }

    @Test func badMessagesGetErrorsAndTheConnectionGoesOn() throws {
        let directory = TestPaths.temporaryDirectory("srv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (serve, edit) = try Self.start(directory)
        defer { withExtendedLifetime(serve) {} }
        try edit.send(text: "compile please")
        #expect(ServeProcess.object(try edit.receiveText())?["class"] as? String == "error")
        let unknown = try Self.ask(edit, ["cmd": "explode"])
        #expect((unknown?["message"] as? String)?.contains("unknown cmd 'explode'") == true)
        let missing = try Self.ask(edit, ["cmd": "open", "preset": "no-such-preset"])
        #expect(missing?["class"] as? String == "error")
        #expect(try Self.ask(edit, ["cmd": "list"])?["class"] as? String == "presets")
    }

    @Test func saveRefusesPathsThatLeaveThePresetAndWritesNothing() throws {
        let directory = TestPaths.temporaryDirectory("srv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (serve, edit) = try Self.start(directory)
        let foil = serve.presets.appendingPathComponent("foil")
        try FileManager.default.createSymbolicLink(
            atPath: foil.appendingPathComponent("link.glsl").path, withDestinationPath: directory.path + "/outside.glsl"
        )
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        for name in [
            "../escaped.glsl", "/tmp/absolute.glsl", "../../x.glsl", "sub/new.glsl", "notes.txt", ".hidden.glsl",
            "link.glsl", "..", "preset.json/../../x.glsl",
        ] {
            let answer = try Self.ask(edit, ["cmd": "save", "preset": "foil", "files": [name: "// x\n"]])
            #expect(answer?["class"] as? String == "error", "\(name)")
        }
        let traversal = try Self.ask(edit, ["cmd": "save", "preset": "../presets/foil", "files": ["foil.glsl": "x"]])
        #expect(traversal?["class"] as? String == "error")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/outside.glsl"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/absolute.glsl"))
        #expect(!FileManager.default.fileExists(atPath: serve.presets.path + "/escaped.glsl"))
    }

    @Test func saveWritesAtomicallyAndARunningRenderReloads() throws {
        let directory = TestPaths.temporaryDirectory("srv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (serve, edit) = try Self.start(directory)
        let foilFile = serve.presets.appendingPathComponent("foil/foil.glsl")
        let original = try String(contentsOf: foilFile, encoding: .utf8)
        let inode = try FileManager.default.attributesOfItem(atPath: foilFile.path)[.systemFileNumber] as? Int

        let watcher = try BackgroundProcess(
            TestPaths.executable("tiltfx"),
            [
                "render", "--preset", "foil", "--presets", serve.presets.path, "--size", "64x64", "--out",
                directory.appendingPathComponent("foil.png").path, "--watch",
            ])
        defer { watcher.kill(SIGTERM) }
        #expect(eventually(timeout: 30) { watcher.stderr.contains("watching") })

        // A broken save is refused and leaves the file alone.
        let broken = try Self.ask(
            edit, ["cmd": "save", "preset": "foil", "files": ["foil.glsl": original + "\nthis is not glsl\n"]])
        #expect(broken?["class"] as? String == "error")
        #expect((broken?["message"] as? String)?.contains("does not compile") == true)
        #expect(try String(contentsOf: foilFile, encoding: .utf8) == original)

        let changed = original + "\n// saved from the editor\n"
        let saved = try Self.ask(edit, ["cmd": "save", "preset": "foil", "files": ["foil.glsl": changed]])
        #expect(saved?["class"] as? String == "saved")
        #expect(saved?["files"] as? [String] == ["foil.glsl"])
        #expect(try String(contentsOf: foilFile, encoding: .utf8) == changed)
        // Renamed into place: a new inode, no temporary file left beside it.
        let newInode = try FileManager.default.attributesOfItem(atPath: foilFile.path)[.systemFileNumber] as? Int
        #expect(inode != newInode)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: foilFile.deletingLastPathComponent().path).sorted()
                == ["foil.glsl", "preset.json"])
        #expect(eventually(timeout: 30) { watcher.stderr.contains("reloaded 'foil'") }, "\(watcher.stderr)")
    }
}
