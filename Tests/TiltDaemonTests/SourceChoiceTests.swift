import Testing
import TiltCore
import TiltDSU
import TiltIIO
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
        let reads = Dictionary(uniqueKeysWithValues: DaemonOptions.sourceKinds.map { ($0.key, $0.reads) })
        #expect(
            error?.message
                == "\(first) and \(second) exclude each other: \(reads[first]!) or \(reads[second]!); keep one")
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
        let source = try merged.makeConfiguration().source
        let replay = try #require(source.configuration as? LogReplaySource.Configuration, "not a replay: \(source)")
        #expect(replay.path == "/tmp/x.csv")
        var back = DaemonOptions()
        back.dsu = DSUEndpoint(host: "192.0.2.5", port: 26760, slot: nil)
        #expect(
            try file.overlaid(by: back).makeConfiguration().source
                == .init(DSUMotionSource.Configuration(endpoint: back.dsu!)))
    }

    @Test(
        "every source kind is one line of sourceKinds: its settings are in the table, the first picks it, keys unique")
    func everyKindIsListedOnce() throws {
        let keys = DaemonOptions.sourceKinds.map(\.key)
        #expect(keys == ["replay", "uri", "evdev", "dsu"])
        #expect(Set(keys).count == keys.count)
        for kind in DaemonOptions.sourceKinds {
            for setting in kind.settings {
                #expect(DaemonOptions.setting(key: setting.key) != nil, "\(setting.key) is in the settings table")
            }
            #expect(kind.settings[0].choice == DaemonOptions.sourceChoice)
            #expect(kind.settings.dropFirst().allSatisfy { $0.choice == nil }, "only the first setting picks the kind")
        }
        let picking = DaemonOptions.settings.filter { $0.choice == DaemonOptions.sourceChoice }.map(\.key)
        #expect(picking == keys, "no source setting outside a kind")
    }

    @Test("no source given reads this machine's IIO sensors; the replay takes speed, loop and no_mag")
    func defaultsAndTheReplaysSettings() throws {
        let none = try DaemonOptions().makeConfiguration().source
        #expect(none == .init(IIOMotionSource.Configuration(uri: DaemonOptions.defaultIIOURI)))
        var options = DaemonOptions()
        options.replay = "/tmp/x.csv"
        options.speed = 4
        options.loop = true
        options.noMag = true
        let source = try options.makeConfiguration().source
        #expect(
            source
                == .init(
                    LogReplaySource.Configuration(path: "/tmp/x.csv", speed: 4, loop: true, useMagnetometer: false)))
        #expect(source.configuration.speed == 4)
        #expect(source.configuration.calibrationExemption != nil, "a replay searches no calibration")
        #expect(none.configuration.calibrationExemption == nil, "IIO sensors do")
    }
}
