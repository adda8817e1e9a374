import Foundation
import Testing
import TiltCore
import TiltRender
import TiltRenderTestKit
import TiltTestKit

/// Issue 30 item 4: the renderer asks for the attitude at each frame's expected display time, and says what it
/// measured.
@Suite struct PredictionSettingTests {
    @Test(
        "--predict takes auto, off or seconds from 0 to 0.1",
        arguments: [
            ("auto", PredictionSetting.auto), ("off", .off), ("0", .off), ("0.03", .fixed(0.03)), ("0.1", .fixed(0.1)),
        ])
    func parses(_ text: String, _ expected: PredictionSetting) {
        #expect(PredictionSetting(argument: text) == expected)
    }

    @Test(arguments: ["0.2", "-0.01", "soon", "nan", ""])
    func refuses(_ text: String) {
        #expect(PredictionSetting(argument: text) == nil)
    }

    @Test("timing: the parts of sample-to-swap are counted per frame, and the lead follows the draw time")
    func timingCountsTheParts() throws {
        var timing = PresentationTiming()
        for i in 0..<50 {
            let mono = Double(i)
            timing.add(
                mono: mono, received: mono + 0.002, drawStart: mono + 0.005, swapEnd: mono + 0.009, predicted: 0.01,
                displayDelay: 1.0 / 60)
        }
        #expect(abs(try #require(timing.sampleToSwap.percentile(0.5)) - 0.009) < 2e-4)
        #expect(abs(try #require(timing.daemonAndSocket.percentile(0.5)) - 0.002) < 2e-4)
        #expect(abs(try #require(timing.rendererWait.percentile(0.5)) - 0.003) < 2e-4)
        #expect(abs(try #require(timing.draw.percentile(0.5)) - 0.004) < 2e-4)
        #expect(abs(timing.expectedLead - (0.004 + 1.0 / 60)) < 1e-3)
        let json = try #require(LineSocket.parse(timing.jsonLine(setting: .auto)))
        #expect(json["class"] as? String == "latency" && json["frames"] as? Int == 50)
        #expect((json["sampleToSwapMs"] as? [String: Any])?["p50"] as? Double == 9.0, "\(json)")
        #expect((json["predictedMs"] as? [String: Any])?["p99"] as? Double == 10.0, "\(json)")
        // Nothing measured: null, not zero.
        let empty = try #require(LineSocket.parse(PresentationTiming().jsonLine(setting: .off)))
        #expect((empty["drawMs"] as? [String: Any])?["p50"] is NSNull, "\(empty)")
    }
}

/// `tiltfx run --headless --stats --predict …` driven by a real tiltd replaying a moving recording.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct PredictionRunTests {
    private func latency(predict: String) throws -> [String: Any] {
        let dir = TestPaths.temporaryDirectory("predict-run")
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--loop", "--no-power"], in: dir)
        defer { daemon.stop() }
        let run = try RunningTiltFX([
            "run", "--headless", "--stats", "--presets", GLTestEnvironment.presetsDirectory, "--preset",
            "tilt-specular", "--size", "64x64", "--seconds", "4", "--socket", try #require(daemon.socketPath),
            "--predict", predict,
        ])
        _ = try run.finish()
        return try #require(
            run.objects.last(where: { $0["class"] as? String == "latency" }), "no latency line: \(run.objects)")
    }

    private func ms(_ line: [String: Any], _ key: String, _ p: String = "p50") -> Double? {
        (line[key] as? [String: Any])?[p] as? Double
    }

    @Test("auto: frames are drawn predicted, and the sample-to-swap time is measured with its parts")
    func autoPredictsAndMeasures() throws {
        let line = try latency(predict: "auto")
        #expect(line["prediction"] as? String == "auto")
        #expect((line["frames"] as? Int ?? 0) > 5, "\(line)")
        let total = try #require(ms(line, "sampleToSwapMs"))
        let daemon = try #require(ms(line, "daemonAndSocketMs"))
        #expect(total > 0 && daemon >= 0 && daemon <= total + 0.1, "\(line)")
        #expect(try #require(ms(line, "predictedMs", "p99")) > 0, "a moving replay is predicted: \(line)")
    }

    @Test("off: nothing is predicted; a fixed value: tiltd predicts exactly that")
    func offAndFixed() throws {
        let off = try latency(predict: "off")
        #expect(ms(off, "predictedMs", "p99") == 0, "\(off)")
        let fixed = try latency(predict: "0.02")
        #expect(fixed["prediction"] as? String == "0.02")
        // The first frames may come before tiltd took the watch's predict; most are 20 ms ahead.
        #expect(ms(fixed, "predictedMs") == 20, "\(fixed)")
    }
}
