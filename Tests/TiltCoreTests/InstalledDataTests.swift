import Foundation
import Testing
import TiltCore
import TiltTestKit

/// Where an installed tilt's data is looked up: beside the program, then `$XDG_DATA_DIRS`.
@Suite struct InstalledDataTests {
    @Test("the program's PREFIX/share comes first, then XDG_DATA_DIRS's default /usr/local/share and /usr/share")
    func prefixThenDefaultDataDirectories() {
        let folders = InstalledData.directories(.presets, executablePath: "/opt/tilt/bin/tiltfx", environment: [:])
        #expect(
            folders == ["/opt/tilt/share/tilt/presets", "/usr/local/share/tilt/presets", "/usr/share/tilt/presets"])
    }

    @Test("tiltfx serve's pages are installed data too: PREFIX/share/tilt/web")
    func webPagesAreInstalledData() {
        let folders = InstalledData.directories(.web, executablePath: "/usr/bin/tiltfx", environment: [:])
        #expect(folders == ["/usr/share/tilt/web", "/usr/local/share/tilt/web"])
    }

    @Test("a program in /usr/bin is not searched twice: /usr/share comes first, and once")
    func noDuplicates() {
        let folders = InstalledData.directories(
            .calibration, executablePath: "/usr/bin/tiltd", environment: ["XDG_DATA_DIRS": ""])
        #expect(folders == ["/usr/share/tilt/calibration", "/usr/local/share/tilt/calibration"])
    }

    @Test("XDG_DATA_DIRS replaces the default; relative entries are ignored, trailing slashes and '..' normalised")
    func dataDirectoriesVariable() {
        let folders = InstalledData.directories(
            .presets, executablePath: "/usr/local/bin/../bin/tiltfx",
            environment: ["XDG_DATA_DIRS": "/a/:relative:/b/c/../d"])
        #expect(folders == ["/usr/local/share/tilt/presets", "/a/tilt/presets", "/b/d/tilt/presets"])
    }

    @Test("a program path that is not absolute adds no PREFIX folder")
    func relativeProgram() {
        let folders = InstalledData.directories(
            .presets, executablePath: "tiltfx", environment: ["XDG_DATA_DIRS": "/x"])
        #expect(folders == ["/x/tilt/presets"])
    }

    @Test("the running program's path is absolute (from /proc/self/exe)")
    func runningProgram() {
        #expect(InstalledData.executablePath.hasPrefix("/"))
    }

    @Test("describe names each folder in order and marks the missing ones")
    func describe() throws {
        let present = TestPaths.temporaryDirectory("data").path
        #expect(
            InstalledData.describe([present, "/nonexistent/tilt/presets"])
                == "\(present), /nonexistent/tilt/presets (not there)")
        #expect(InstalledData.describe([]) == "no folders")
    }
}
