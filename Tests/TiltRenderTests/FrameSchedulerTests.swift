import Testing
import TiltCore
import TiltEffects
import TiltRender

/// The frame scheduler alone: no GL, no clock, every power mode, the transitions between them, render-on-change.
@Suite struct FrameSchedulerTests {
    static let battery = PowerState(onBattery: true, capacity: 50)
    static let lowBattery = PowerState(onBattery: true, capacity: 9)
    static let saver = PowerState(onBattery: false, capacity: 100, profile: "power-saver")

    /// Inputs for a 100×100 frame at `tilt`, with a clock that differs from frame to frame.
    static func inputs(tilt: Double = 0, frame: Int = 0, size: Double = 100) -> FrameInputs {
        FrameInputs(
            time: Double(frame) / 60, timeDelta: 1.0 / 60, frame: frame, size: SIMD2(size, size),
            tilt: SIMD2(tilt, 0))
    }

    /// The seconds of a `.wait`, else nil.
    static func waitSeconds(_ action: FrameScheduler.Action) -> Double? {
        if case .wait(let seconds) = action { return seconds }
        return nil
    }

    /// Runs a loop for `seconds` at `step` s resolution, drawing whatever is admitted; returns the times drawn.
    static func simulate(
        _ scheduler: SchedulerLoop, power: PowerState?, window: WindowVisibility = .visible, from: Double = 0,
        seconds: Double, step: Double = 0.001, animated: Bool = true
    ) -> [Double] {
        var drawn: [Double] = []
        var t = from
        var frame = 0
        while t < from + seconds {
            let next = scheduler.next(power: power, window: window, now: t)
            switch next.action {
            case .frameDue:
                if scheduler.admit(inputs(frame: frame), animated: animated, now: t) {
                    drawn.append(t)
                    frame += 1
                }
            case .stop: return drawn
            case .idle, .wait: break
            }
            t += step
        }
        return drawn
    }

    @Test func theFirstStepDecidesTheModeAndADrawIsDue() {
        let scheduler = SchedulerLoop(policy: .automatic)
        #expect(scheduler.decision == nil)
        #expect(scheduler.motionRate == 60, "before any decision: the full rate a loop subscribes with")
        let step = scheduler.next(power: nil, window: .visible, now: 0)
        #expect(step.change == PowerPolicy.automatic.decision(for: .full), "no daemon counts as mains")
        #expect(step.action == .frameDue)
        #expect(scheduler.next(power: nil, window: .visible, now: 0.01).change == nil, "no change, no new decision")
    }

    @Test func fullModeIsPacedByTheDisplayRateOrTheSwap() {
        let headless = SchedulerLoop(policy: .automatic, displayRate: 50)
        _ = headless.next(power: .mains, window: .visible, now: 0)
        #expect(headless.admit(Self.inputs(), animated: true, now: 0))
        let wait = Self.waitSeconds(headless.next(power: .mains, window: .visible, now: 0.005).action)
        #expect(abs((wait ?? 0) - 0.015) < 1e-9, "a frame drawn at 0 makes the next one wait")
        #expect(headless.next(power: .mains, window: .visible, now: 0.02).action == .frameDue)

        let window = SchedulerLoop(policy: .automatic)
        _ = window.next(power: .mains, window: .visible, now: 0)
        #expect(window.admit(Self.inputs(), animated: true, now: 0))
        #expect(window.next(power: .mains, window: .visible, now: 0.001).action == .frameDue, "the swap paces it")
        #expect(window.motionRate == 60)
    }

    @Test func fullModeDrawsAtTheRunsFrameRate() {
        let scheduler = SchedulerLoop(policy: .automatic, displayRate: 20)
        let drawn = Self.simulate(scheduler, power: .mains, seconds: 1)
        #expect((19...21).contains(drawn.count), "\(drawn.count) frames in a second at 20 fps")
    }

    @Test func cappedDrawsAtMostThirtyAndWatchesAtFifteen() throws {
        let scheduler = SchedulerLoop(policy: .automatic, displayRate: 120)
        let change = scheduler.next(power: Self.battery, window: .visible, now: 0).change
        #expect(change?.mode == .capped && change?.motionRate == 15 && change?.frameRate == 30)
        #expect(scheduler.motionRate == 15)
        let drawn = Self.simulate(scheduler, power: Self.battery, seconds: 1)
        #expect((29...31).contains(drawn.count), "\(drawn.count) frames in a second, capped at 30")
        for (a, b) in zip(drawn, drawn.dropFirst()) { #expect(b - a >= 1.0 / 30 - 1e-9) }
    }

    @Test func stillDrawsExactlyOnceEvenAnimatedAndStopsWatching() {
        let scheduler = SchedulerLoop(policy: .automatic, displayRate: 60)
        let change = scheduler.next(power: Self.saver, window: .visible, now: 0).change
        #expect(change?.mode == .still && change?.motionRate == nil)
        #expect(scheduler.motionRate == nil)
        let drawn = Self.simulate(scheduler, power: Self.saver, seconds: 2, animated: true)
        #expect(drawn == [0], "one still frame of an animated preset, then nothing")
        #expect(scheduler.next(power: Self.saver, window: .visible, now: 3).action == .idle(timeout: nil))
        let stats = scheduler.finalStats(now: 3)
        #expect(stats.modes[.still]?.drawn == 1 && stats.modes[.still]?.skipped == 0)
    }

    @Test func stillRedrawsOnceWhenInvalidatedEvenWithTheSameInputs() {
        let scheduler = SchedulerLoop(policy: .fixed(.still))
        _ = scheduler.next(power: nil, window: .visible, now: 0)
        #expect(scheduler.admit(Self.inputs(), animated: false, now: 0))
        #expect(scheduler.next(power: nil, window: .visible, now: 1).action == .idle(timeout: nil))
        scheduler.invalidate()
        #expect(scheduler.next(power: nil, window: .visible, now: 2).action == .frameDue)
        #expect(scheduler.admit(Self.inputs(), animated: false, now: 2), "the still frame is never skipped")
        #expect(scheduler.next(power: nil, window: .visible, now: 3).action == .idle(timeout: nil))
        #expect(scheduler.finalStats(now: 3).modes[.still]?.drawn == 2)
    }

    @Test func hiddenDrawsNothingAndWatchesNothing() {
        let scheduler = SchedulerLoop(policy: .fixed(.full), displayRate: 60)
        let change = scheduler.next(power: .mains, window: .hidden, now: 0).change
        #expect(change?.mode == .hidden && change?.motionRate == nil)
        #expect(Self.simulate(scheduler, power: .mains, window: .hidden, seconds: 1).isEmpty)
        scheduler.invalidate()
        #expect(scheduler.next(power: .mains, window: .hidden, now: 1.5).action == .idle(timeout: nil))
        let shown = scheduler.next(power: .mains, window: .visible, now: 2)
        #expect(shown.change?.mode == .full && shown.action == .frameDue)
        let stats = scheduler.finalStats(now: 3)
        #expect(stats.modes[.hidden]?.drawn ?? 0 == 0 && stats.modes[.hidden]?.entered == 1)
        #expect(abs((stats.modes[.hidden]?.seconds ?? 0) - 2) < 1e-9)
    }

    @Test func unchangedInputsAreSkippedAndAVisibleChangeIsDrawn() {
        let scheduler = SchedulerLoop(policy: .automatic, displayRate: 10)
        _ = scheduler.next(power: .mains, window: .visible, now: 0)
        #expect(scheduler.admit(Self.inputs(frame: 0), animated: false, now: 0))
        #expect(!scheduler.admit(Self.inputs(frame: 1), animated: false, now: 0.1), "only the clock moved")
        let wait = Self.waitSeconds(scheduler.next(power: .mains, window: .visible, now: 0.15).action)
        #expect(abs((wait ?? 0) - 0.05) < 1e-9, "a skipped frame paces like a drawn one")
        #expect(scheduler.admit(Self.inputs(tilt: 0.1, frame: 1), animated: false, now: 0.2), "the tilt moved")
        #expect(scheduler.admit(Self.inputs(tilt: 0.1, frame: 2, size: 200), animated: false, now: 0.3), "resized")
        #expect(
            scheduler.admit(Self.inputs(tilt: 0.1, frame: 3, size: 200), animated: false, overlay: "error", now: 0.4),
            "an error banner appeared")
        #expect(!scheduler.admit(Self.inputs(tilt: 0.1, size: 200), animated: false, overlay: "error", now: 0.5))
        #expect(scheduler.admit(Self.inputs(tilt: 0.1, size: 200), animated: true, overlay: "error", now: 0.6))
        let stats = scheduler.finalStats(now: 1)
        #expect(stats.drawn == 5 && stats.skipped == 2)
        #expect(stats.modes[.full]?.skipped == 2)
    }

    @Test("a still device's sensor noise draws nothing; a slow drift is drawn once it adds up to a visible step")
    func noiseIsNotDrawnAndDriftIs() {
        let scheduler = SchedulerLoop(policy: .automatic, displayRate: 60)
        _ = scheduler.next(power: .mains, window: .visible, now: 0)
        var still = Self.inputs()
        #expect(scheduler.admit(still, animated: false, now: 0))
        var random = SeededRandom(seed: 7)
        for frame in 1...60 {
            // Noise of a device at rest: ±3·10⁻⁵ rad of tilt, ±10⁻³ rad/s of rate, ±10⁻⁴ m/s² of gravity.
            var noisy = Self.inputs(frame: frame)
            noisy.tilt += SIMD2(
                Double.random(in: -3e-5...3e-5, using: &random), Double.random(in: -3e-5...3e-5, using: &random))
            noisy.rotationRate = SIMD3(
                Double.random(in: -1e-3...1e-3, using: &random), Double.random(in: -1e-3...1e-3, using: &random),
                Double.random(in: -1e-3...1e-3, using: &random))
            noisy.gravity += SIMD3(Double.random(in: -1e-4...1e-4, using: &random), 0, 0)
            #expect(!scheduler.admit(noisy, animated: false, now: Double(frame) / 60), "frame \(frame)")
        }
        // 10⁻⁴ rad a frame: each step unseen, but the third is 3·10⁻⁴ from the frame drawn.
        var drawn: [Int] = []
        for step in 1...6 {
            still.tilt.x = Double(step) * 1e-4
            if scheduler.admit(still, animated: false, now: 1 + Double(step) / 60) { drawn.append(step) }
        }
        #expect(drawn == [3, 6])
        still.rotationRate.z = 0.01
        #expect(scheduler.admit(still, animated: false, now: 2), "turning at 0.01 rad/s is motion")
    }

    @Test func aReloadOrAModeChangeDrawsTheSameInputsAgain() {
        let scheduler = SchedulerLoop(policy: .automatic)
        _ = scheduler.next(power: .mains, window: .visible, now: 0)
        #expect(scheduler.admit(Self.inputs(), animated: false, now: 0))
        #expect(!scheduler.admit(Self.inputs(), animated: false, now: 0.1))
        scheduler.contentChanged()
        #expect(scheduler.admit(Self.inputs(), animated: false, now: 0.2), "a reloaded preset is drawn")
        #expect(!scheduler.admit(Self.inputs(), animated: false, now: 0.3))
        scheduler.invalidate()
        #expect(!scheduler.admit(Self.inputs(), animated: false, now: 0.4), "exposure alone redraws only the still")
        #expect(scheduler.next(power: Self.battery, window: .visible, now: 1).change?.mode == .capped)
        #expect(scheduler.admit(Self.inputs(), animated: false, now: 1), "a new mode draws its first frame")
    }

    @Test func transitionsFollowThePowerStateAndCountEachMode() {
        let scheduler = SchedulerLoop(policy: .automatic, displayRate: 60)
        var modes: [PowerMode] = []
        let timeline: [(Double, PowerState?, WindowVisibility)] = [
            (0, .mains, .visible), (1, Self.battery, .visible), (2, Self.lowBattery, .visible),
            (3, Self.saver, .visible), (4, Self.saver, .hidden), (5, .mains, .visible),
        ]
        for (t, power, window) in timeline {
            if let change = scheduler.next(power: power, window: window, now: t).change { modes.append(change.mode) }
        }
        #expect(modes == [.full, .capped, .still, .hidden, .full], "a low battery and power-saver are both still")
        let stats = scheduler.finalStats(now: 6)
        #expect(stats.modes[.full]?.entered == 2 && abs((stats.modes[.full]?.seconds ?? 0) - 2) < 1e-9)
        #expect(abs((stats.modes[.still]?.seconds ?? 0) - 2) < 1e-9, "still from 2 s to 4 s")
    }

    @Test func aPresetPolicyAndAFixedPolicyChooseTheModes() {
        let preset = SchedulerLoop(policy: PowerPolicy(mains: .capped, battery: .still, lowPower: .still))
        #expect(preset.next(power: .mains, window: .visible, now: 0).change?.mode == .capped)
        #expect(preset.next(power: Self.battery, window: .visible, now: 1).change?.mode == .still)
        let fixed = SchedulerLoop(policy: .fixed(.full))
        #expect(fixed.next(power: Self.saver, window: .visible, now: 0).change?.mode == .full)
    }

    @Test func theRunEndsAtItsDurationAndWaitsNeverPassIt() {
        let scheduler = SchedulerLoop(policy: .automatic, displayRate: 1, duration: 2)
        _ = scheduler.next(power: .mains, window: .visible, now: 0)
        #expect(scheduler.admit(Self.inputs(), animated: true, now: 0))
        #expect(scheduler.next(power: .mains, window: .visible, now: 0.5).action == .wait(seconds: 0.5))
        #expect(scheduler.next(power: .mains, window: .visible, now: 1.6).action == .frameDue)
        _ = scheduler.admit(Self.inputs(), animated: true, now: 1.6)
        #expect(scheduler.next(power: .mains, window: .visible, now: 1.9).action == .wait(seconds: 2 - 1.9))
        #expect(scheduler.next(power: .mains, window: .visible, now: 2).action == .stop)

        let still = SchedulerLoop(policy: .fixed(.still), duration: 2)
        _ = still.next(power: nil, window: .visible, now: 0)
        _ = still.admit(Self.inputs(), animated: false, now: 0)
        #expect(still.next(power: nil, window: .visible, now: 1.25).action == .idle(timeout: 0.75))
    }

    @Test func statsLinesAreJSONWithTheExpectedFields() {
        let scheduler = SchedulerLoop(policy: .automatic, displayRate: 60)
        _ = scheduler.next(power: .mains, window: .visible, now: 0)
        _ = scheduler.admit(Self.inputs(), animated: false, now: 0)
        _ = scheduler.admit(Self.inputs(), animated: false, now: 0.1)
        let line = scheduler.finalStats(now: 1.23456).jsonLine
        #expect(
            line == #"{"class":"stats","drawn":1,"skipped":1,"modes":{"full":{"drawn":1,"skipped":1,"seconds":1.235,"#
                + #""entered":1},"capped":{"drawn":0,"skipped":0,"seconds":0.0,"entered":0},"still":{"drawn":0,"#
                + #""skipped":0,"seconds":0.0,"entered":0},"hidden":{"drawn":0,"skipped":0,"seconds":0.0,"entered":0}}}"#
        )
        let mode = PowerPolicy.automatic.decision(for: .still).jsonLine(power: Self.saver)
        #expect(
            mode == #"{"class":"mode","mode":"still","frameRate":0.0,"motionRate":null,"onBattery":false,"#
                + #""profile":"power-saver","lowPower":true}"#)
        let escaped = PowerPolicy.automatic.decision(for: .full).jsonLine(
            power: PowerState(profile: "odd \"quote\"\n"))
        #expect(escaped.contains(#""frameRate":null,"motionRate":60.0"#))
        #expect(escaped.contains(#""profile":"odd \"quote\"\n""#), "strings are escaped: \(escaped)")
    }
}
