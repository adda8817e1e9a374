import Foundation
import Testing
import TiltTestKit

/// The packaged `tilt` and `tiltfx` are one program, `tilt-multicall`, installed under both names: it must be each of
/// them exactly when started by its name, through a link, and refuse any other name with a usage error.
@Suite(.serialized) struct MulticallProgramTests {
    /// A folder with links named `names` to the built `tilt-multicall`.
    static func links(_ names: [String]) throws -> URL {
        let folder = TestPaths.temporaryDirectory("multicall")
        for name in names {
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent(name).path,
                withDestinationPath: TestPaths.executable("tilt-multicall"))
        }
        return folder
    }

    @Test("started as tilt or tiltfx it prints that program's own help, word for word, and its version")
    func runsTheProgramItIsNamedAs() throws {
        let folder = try Self.links(["tilt", "tiltfx"])
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["tilt", "tiltfx"] {
            let linked = try ChildProcess.run(folder.appendingPathComponent(name).path, ["--help"], timeout: 60)
            let alone = try ChildProcess.run(TestPaths.executable(name), ["--help"], timeout: 60)
            #expect(linked.status == 0, "\(linked.stderr)")
            #expect(linked.stdout.hasPrefix("OVERVIEW: "), "\(linked.stdout)")
            #expect(linked.stdout == alone.stdout)
            let version = try ChildProcess.run(folder.appendingPathComponent(name).path, ["--version"], timeout: 60)
            let aloneVersion = try ChildProcess.run(TestPaths.executable(name), ["--version"], timeout: 60)
            #expect(version.status == 0)
            #expect(!version.stdout.isEmpty)
            #expect(version.stdout == aloneVersion.stdout)
        }
    }

    @Test(
        "a subcommand runs as the named program's: tiltfx presets lists the bundled presets, tilt fuse rejects a bad rate"
    )
    func subcommandsRun() throws {
        let folder = try Self.links(["tilt", "tiltfx"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let presets = try ChildProcess.run(folder.appendingPathComponent("tiltfx").path, ["presets"], timeout: 60)
        #expect(presets.status == 0, "\(presets.stderr)")
        #expect(presets.stdout.contains("holo-card"), "\(presets.stdout)")
        let watch = try ChildProcess.run(
            folder.appendingPathComponent("tilt").path, ["watch", "--rate", "0"], timeout: 60)
        #expect(watch.status == 64)
        #expect(watch.stderr.hasPrefix("error: --rate must be from 0.1 to 1000"), "\(watch.stderr)")
    }

    @Test("started by any other name it says which names it answers to and exits 64")
    func refusesOtherNames() throws {
        let folder = try Self.links(["tiltx"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try ChildProcess.run(folder.appendingPathComponent("tiltx").path, ["--help"], timeout: 60)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: "), "\(result.stderr)")
        #expect(result.stderr.contains("'tiltx'"), "\(result.stderr)")
        #expect(result.stderr.contains("named tilt or tiltfx"), "\(result.stderr)")
    }
}
