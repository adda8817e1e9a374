import Foundation
import Testing
import TiltCore
import TiltSensors
import TiltTestKit
import TiltTools

/// The calibration's sample collection, driven by scripted streams and a scripted console: no daemon, no terminal.
@Suite
struct CalibrationSessionTests {
    static let offset = Vector3(0.12, -0.05, 0.2)

    /// `seconds` still with `up` pointing up, as an accelerometer with offset ``offset`` reads it.
    static func still(_ up: Vector3, seed: UInt64 = 3) -> [MotionSample] {
        CalibrationFixtures.samples(duration: 2, seed: seed) { _ in (.zero, up * standardGravity + offset, nil) }
    }

    static func session(_ stream: ScriptedStream, _ console: ScriptedConsole) -> CalibrationSession {
        var session = CalibrationSession(
            feed: CalibrationSampleFeed(device: .init(name: "bmi160", origin: "a script"), source: .daemon(stream)),
            console: console.console)
        session.pollInterval = .milliseconds(1)
        return session
    }

    @Test("interactive: each position is asked for; a repeat is refused and asked again; the fit recovers the offset")
    func interactivePositions() async throws {
        let faces: [Vector3] = [.unitZ, .unitZ, -.unitZ, .unitY, -.unitY, .unitX, -.unitX]
        let stream = ScriptedStream(batches: faces.enumerated().map { Self.still($1, seed: UInt64($0 + 1)) })
        let console = ScriptedConsole()
        let result = try await Self.session(stream, console).accel(seconds: 2, automatic: false, timeout: 60)
        #expect((result.fit.offset - Self.offset).norm < 0.02, "offset \(result.fit.offset)")
        #expect(result.summary.hasPrefix("six positions of 2.0 s; largest residual "))
        #expect(stream.restarts == 7, "one collection per prompt")
        let said = console.said
        #expect(said.first == "position 1/6: lay the device flat, screen up, then press Enter")
        #expect(said.contains("got +z up"))
        #expect(said.contains("refused: +z up is done already; turn the device to a new side; try again"))
        #expect(said.filter { $0.hasPrefix("position 2/6: ") }.count == 2, "asked again after the refusal")
        #expect(said.last == "got -x up")
        #expect(console.progress.first?.hasPrefix("collecting: ") == true, "\(console.progress)")
    }

    @Test("interactive: a face other than the one asked is taken, and said so")
    func interactiveOtherFace() async throws {
        let faces: [Vector3] = [-.unitZ, .unitZ, .unitY, -.unitY, .unitX, -.unitX]
        let stream = ScriptedStream(batches: faces.map { Self.still($0) })
        let console = ScriptedConsole()
        _ = try await Self.session(stream, console).positions(seconds: 2, automatic: false, timeout: 60)
        #expect(console.said[1] == "got -z up (not the one asked, but new)")
    }

    @Test("interactive: the input ending before six positions is an error that says to use --auto")
    func interactiveInputEnds() async throws {
        let stream = ScriptedStream(batches: [Self.still(.unitZ)])
        let console = ScriptedConsole(answers: ["", nil])
        await #expect {
            _ = try await Self.session(stream, console).positions(seconds: 2, automatic: false, timeout: 60)
        } throws: { error in
            (error as? CalibrateError)?.kind == .incomplete
                && (error as? CalibrateError)?.message
                    == "standard input ended before all six positions were done (use --auto without a terminal)"
        }
        #expect(
            console.said == [
                "position 1/6: lay the device flat, screen up, then press Enter", "got +z up",
                "position 2/6: lay the device flat, screen down, then press Enter",
            ])
    }

    @Test("automatic: the six positions are taken from the stream as they come, in order")
    func automaticPositions() async throws {
        let samples = CalibrationFixtures.sixPositions(offset: Self.offset, inverseMatrix: .identity)
        let stream = ScriptedStream(growing: samples, step: 150)
        let console = ScriptedConsole()
        // The timeout only bounds a hang: the stream grows by one step per poll, so a machine too busy to poll often
        // takes longer, and the positions come all the same.
        let finder = try await Self.session(stream, console).positions(seconds: 2, automatic: true, timeout: 600)
        #expect(finder.isComplete)
        #expect(console.said == CalibrationFit.Face.allCases.map { "got \($0)" })
        #expect(stream.restarts == 1)
    }

    @Test("automatic: it gives up after --timeout, saying how many positions it had")
    func automaticTimeout() async throws {
        let stream = ScriptedStream(growing: Self.still(.unitZ), step: 10)
        let console = ScriptedConsole()
        await #expect {
            _ = try await Self.session(stream, console).positions(seconds: 2, automatic: true, timeout: 0.2)
        } throws: { error in
            (error as? CalibrateError)?.kind == .incomplete
                && (error as? CalibrateError)?.message.hasPrefix("gave up after 0 s with ") == true
        }
    }

    @Test("gyro from a log: the first --duration seconds; a shorter log is refused saying how long it is")
    func gyroFromALog() async throws {
        let bias = Vector3(0.01, -0.02, 0.005)
        let samples = CalibrationFixtures.samples(duration: 5) { _ in (bias, Vector3(0, 0, standardGravity), nil) }
        let session = CalibrationSession(
            feed: CalibrationSampleFeed(device: .init(name: nil, origin: "log x"), source: .log(samples)),
            console: ScriptedConsole().console)
        let limits = CalibrationFit.StillnessLimits(gyroStd: 0.01, accelMagnitudeStd: 0.1)
        let result = try await session.gyro(duration: 4, limits: limits)
        #expect((result.bias - bias).norm < 0.002)
        #expect(result.summary.contains(" samples; gyro std "))
        await #expect {
            _ = try await session.gyro(duration: 10, limits: limits)
        } throws: { error in
            (error as? CalibrateError)?.kind == .input
                && (error as? CalibrateError)?.message
                    == "the log holds only 5.0 s; need 10.0 s (or pass a smaller --duration)"
        }
    }

    @Test("gyro live: the prompt, then a progress line while collecting")
    func gyroLive() async throws {
        let still = CalibrationFixtures.samples(duration: 3) { _ in (.zero, Vector3(0, 0, standardGravity), nil) }
        let console = ScriptedConsole()
        let session = Self.session(ScriptedStream(batches: [still]), console)
        _ = try await session.gyro(
            duration: 3, limits: CalibrationFit.StillnessLimits(gyroStd: 0.01, accelMagnitudeStd: 0.1))
        #expect(console.said == ["hold the device still (on a table) for 3.0 s…"])
        #expect(console.progress.first?.hasPrefix("gyro: ") == true, "\(console.progress)")
    }

    @Test("mag: a sweep of every direction gives the hard iron; a stream without readings is refused")
    func magnetometer() async throws {
        let hardIron = Vector3(12, -30, 5)
        let sweep = CalibrationFixtures.magneticSweep(hardIron: hardIron, inverseSoftIron: .identity)
        let console = ScriptedConsole()
        let session = Self.session(ScriptedStream(growing: sweep, step: 500), console)
        // Collection ends once every direction is seen; the duration only bounds it (one step per poll, however
        // slowly a busy machine polls).
        let result = try await session.mag(duration: 600, minCoverage: 0.7)
        #expect((result.hardIron - hardIron).norm < 1, "\(result.hardIron)")
        #expect(console.said == ["turn the device slowly in every direction…"])
        #expect(console.progress.first?.hasPrefix("magn: ") == true)

        let empty = Self.session(ScriptedStream(growing: Self.still(.unitZ)), ScriptedConsole())
        await #expect {
            _ = try await empty.mag(duration: 0.05, minCoverage: 0.7)
        } throws: { error in
            (error as? CalibrateError)?.kind == .coverage
                && (error as? CalibrateError)?.message
                    == "no magnetometer readings (the sensor has none, or tiltd runs with --no-mag)"
        }
    }
}
