import Testing
import TiltCore
import TiltDSU
import TiltSensors

@testable import TiltDaemon

/// The motion sources (`replay`, `uri`, `evdev`, `dsu`) are one choice of the settings table: any two given together
/// are refused alike, and a source named on the command line replaces the file's, as the calibration choice does.
@Suite struct SourceChoiceTests {
    static let values = ["replay": "/tmp/x.csv", "uri": "ip:192.0.2.1", "evdev": "auto", "dsu": "192.0.2.5:26760"]

    static let pairs: [(String, String)] = [
        ("replay", "uri"), ("replay", "evdev"), ("replay", "dsu"), ("uri", "evdev"), ("uri", "dsu"), ("evdev", "dsu"),
    ]

    @Test("any two sources given together are refused in one line naming both and what each reads", arguments: pairs)
    func twoSourcesAreRefused(first: String, second: String) throws {
        var options = DaemonOptions()
        for key in [first, second] {
            let setting = try #require(DaemonOptions.setting(key: key))
            try setting.apply([Self.values[key]!], to: &options, origin: .flag("--\(key)"))
        }
        let error = #expect(throws: DaemonError.self) { try options.makeConfiguration() }
        let what = DaemonOptions.sourceKinds
        #expect(
            error?.message == "\(first) and \(second) exclude each other: \(what[first]!) or \(what[second]!); keep one"
        )
        #expect(error?.kind == .settings)
    }

    @Test("a source flag replaces the file's source: --replay over a file's uri reads the log, and the other way")
    func theFlagsSourceReplacesTheFiles() throws {
        var file = DaemonOptions()
        file.uri = "ip:192.0.2.1"
        file.calibration = "/a.calib"
        var flags = DaemonOptions()
        flags.replay = "/tmp/x.csv"
        let merged = file.overlaid(by: flags)
        #expect(merged.uri == nil)
        #expect(merged.calibration == "/a.calib", "another choice is left as the file says")
        guard case .replay(let replay) = try merged.makeConfiguration().source else {
            Issue.record("not a replay: \(try merged.makeConfiguration().source)")
            return
        }
        #expect(replay.path == "/tmp/x.csv")
        var back = DaemonOptions()
        back.dsu = DSUEndpoint(host: "192.0.2.5", port: 26760, slot: nil)
        #expect(try file.overlaid(by: back).makeConfiguration().source == .dsu(.init(endpoint: back.dsu!)))
    }
}
