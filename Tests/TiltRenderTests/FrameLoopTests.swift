import Foundation
import Logging
import Testing
import TiltCore
import TiltEffects
import TiltGL
import TiltRender
import TiltRenderTestKit

/// The one frame loop, driven through a sink that records what it is given and draws offscreen for real.
@Suite(.serialized)
struct FrameLoopTests {
    /// An offscreen sink that keeps every frame's inputs and plays back a script of events, one per poll.
    final class RecordingSink: FrameSink {
        let renderer: OffscreenRenderer
        var presented: [FrameInputs] = []
        var finished = 0
        var polls = 0
        /// Events by poll number (from 1).
        var script: [Int: SinkEvents] = [:]

        init(preset: String) throws {
            _ = GLTestEnvironment.configured
            renderer = try OffscreenRenderer(preset: try GLTestEnvironment.library.load(preset), width: 16, height: 16)
        }

        var effects: EffectRenderer { renderer.effects }
        var size: SIMD2<Int> { SIMD2(renderer.width, renderer.height) }
        var hasEvents: Bool { true }
        var idleWait: Double { 0.01 }

        func poll(waitSeconds: Double) -> SinkEvents {
            polls += 1
            return script[polls] ?? SinkEvents()
        }

        func present(_ inputs: FrameInputs, frame: Int) throws {
            #expect(frame == presented.count, "frames are numbered as they are drawn")
            try renderer.drawAndWait(inputs)
            presented.append(inputs)
        }

        func finish() throws { finished += 1 }
    }

    static let logger = Logger(label: "test.frameloop")

    /// A preset that reads neither the time nor the previous frame, so equal inputs make equal frames.
    static let staticPreset = "tilt-specular"

    @Test func offlineFramesShowTheirOwnTimeAndTheHeldTiltAndFinishOnce() throws {
        let sink = try RecordingSink(preset: Self.staticPreset)
        var motion = HeldMotion(tilt: SIMD2(0.1, -0.2))
        let outcome = try FrameLoop(pacing: .offline(frames: 5, fps: 10, realTime: false), logger: Self.logger)
            .run(sink: sink, motion: &motion)
        #expect(outcome.frames == 5)
        #expect(outcome.stats == nil)
        #expect(sink.presented.map(\.frame) == [0, 1, 2, 3, 4])
        #expect(sink.presented.map(\.time) == [0, 0.1, 0.2, 0.3, 0.4])
        // Exactly the inputs of a device held at that tilt: gravity and the attitude follow it.
        let expected = (0..<5).map {
            FrameInputs(
                time: Double($0) / 10, timeDelta: 0.1, frame: $0, size: SIMD2(16, 16), tilt: SIMD2(0.1, -0.2))
        }
        #expect(sink.presented == expected)
        #expect(sink.finished == 1)
    }

    @Test func aStillFrameShowsItsTimeWithNoTimeStep() throws {
        let sink = try RecordingSink(preset: Self.staticPreset)
        var motion = HeldMotion(tilt: SIMD2(0.3, 0))
        try FrameLoop(pacing: .still(time: 2.5), logger: Self.logger).run(sink: sink, motion: &motion)
        #expect(sink.presented == [FrameInputs(time: 2.5, size: SIMD2(16, 16), tilt: SIMD2(0.3, 0))])
        #expect(sink.presented.first?.timeDelta == 0, "no frame came before it")
        #expect(sink.presented.first?.gravity != SIMD3(0, 0, -9.80665), "gravity follows the tilt")
        #expect(sink.finished == 1)
    }

    @Test func aReplayDrivesEachFrameFromTheTimelineAtItsTime() throws {
        let sink = try RecordingSink(preset: Self.staticPreset)
        let frames = (0..<11).map { i in
            AttitudeFrame(
                seq: UInt64(i), time: Double(i) / 10, quaternion: .identity, gravity: Vector3(0, 0, -9.8),
                rotationRate: .zero, userAcceleration: .zero, tilt: .init(x: Double(i) / 100, y: 0), flags: .init(),
                source: "test")
        }
        var motion = ReplayMotion(timeline: MotionTimeline(frames: frames))
        try FrameLoop(pacing: .offline(frames: 3, fps: 2, realTime: false), logger: Self.logger)
            .run(sink: sink, motion: &motion)
        #expect(sink.presented.map(\.tilt.x) == [0, 0.05, 0.1])
    }

    @Test func liveFramesWithUnchangedInputsAreDrawnOnceAndSkippedAfter() throws {
        let sink = try RecordingSink(preset: Self.staticPreset)
        sink.script[40] = {
            var e = SinkEvents(); e.quit = true; return e
        }()
        var motion = HeldMotion(tilt: SIMD2(0.2, 0.1))
        let scheduler = FrameScheduler(policy: .automatic, displayRate: 1000)
        let outcome = try FrameLoop(pacing: .live(scheduler), logger: Self.logger).run(sink: sink, motion: &motion)
        #expect(sink.polls == 40, "the loop ends on the sink's quit")
        #expect(sink.presented.count == 1, "the same inputs make the same frame: drawn once")
        #expect(outcome.frames == 1)
        #expect((outcome.stats?.skipped ?? 0) > 0, "the frames due after it were skipped")
    }

    @Test func aReloadedPresetOrAnExposedWindowIsDrawnAgainWithTheSameInputs() throws {
        let sink = try RecordingSink(preset: Self.staticPreset)
        sink.script[10] = {
            var e = SinkEvents(); e.reloaded = true; return e
        }()
        sink.script[30] = {
            var e = SinkEvents(); e.invalidated = true; return e
        }()
        sink.script[50] = {
            var e = SinkEvents(); e.pointer = SinkEvents.Point(x: 3, y: 4); return e
        }()
        sink.script[70] = {
            var e = SinkEvents(); e.quit = true; return e
        }()
        var motion = HeldMotion(tilt: .zero)
        let scheduler = FrameScheduler(policy: .automatic, displayRate: 1000)
        try FrameLoop(pacing: .live(scheduler), logger: Self.logger).run(sink: sink, motion: &motion)
        // The first frame; after the reload; after the pointer moved (an exposure alone does not change a frame that
        // is not the still frame: render-on-change compares the inputs).
        #expect(sink.presented.count == 3, "\(sink.presented.map(\.pointer))")
        #expect(sink.presented.last?.pointer == SIMD2(3, 4))
    }

    @Test(
        "a key pressed in the window is held, pressed for one frame and toggled; released, it is up and stays toggled")
    func keyEventsReachTheKeyboardChannel() throws {
        let sink = try RecordingSink(preset: Self.staticPreset)
        sink.script[10] = {
            var e = SinkEvents(); e.keys = [SinkEvents.Key(code: 65, down: true)]; return e
        }()
        sink.script[30] = {
            var e = SinkEvents(); e.keys = [SinkEvents.Key(code: 65, down: false)]; return e
        }()
        sink.script[50] = {
            var e = SinkEvents(); e.quit = true; return e
        }()
        var motion = HeldMotion(tilt: .zero)
        let scheduler = FrameScheduler(policy: .automatic, displayRate: 1000)
        try FrameLoop(pacing: .live(scheduler), logger: Self.logger).run(sink: sink, motion: &motion)
        let rows = sink.presented.map { i -> [Bool] in
            let k = i.keyboard ?? ShadertoyKeyboard()
            return [k.held[65], k.pressed[65], k.toggled[65]]
        }
        // All up; just pressed; held (the press was one frame); released, still toggled.
        #expect(
            rows == [[false, false, false], [true, true, true], [true, false, true], [false, false, true]], "\(rows)")
    }

    @Test func aLiveRunEndsWhenAskedToStop() throws {
        let sink = try RecordingSink(preset: Self.staticPreset)
        var motion = HeldMotion(tilt: .zero)
        var loop = FrameLoop(pacing: .live(FrameScheduler(policy: .automatic, displayRate: 1000)), logger: Self.logger)
        loop.shouldStop = { sink.polls >= 5 }
        try loop.run(sink: sink, motion: &motion)
        #expect(sink.polls == 5)
    }

    @Test func aTimedRunDrawsAWarmUpFrameThenCountsOnlyTheTimedOnes() throws {
        let sink = try RecordingSink(preset: Self.staticPreset)
        var motion = ScriptedMotion { inputs, t in inputs.hold(tilt: SIMD2(t, 0)) }
        var warmedUpAfter = -1
        var loop = FrameLoop(pacing: .timed(seconds: 0.05), logger: Self.logger)
        loop.afterWarmUp = { warmedUpAfter = sink.presented.count }
        let outcome = try loop.run(sink: sink, motion: &motion)
        #expect(warmedUpAfter == 1)
        #expect(outcome.frames == sink.presented.count - 1)
        #expect(outcome.frames >= 1)
        let timed = Array(sink.presented.dropFirst())
        let expected = timed.indices.map {
            FrameInputs(
                time: Double($0) / 60, timeDelta: 1.0 / 60, frame: $0 + 1, size: SIMD2(16, 16),
                tilt: SIMD2(Double($0) / 60, 0))
        }
        #expect(timed == expected)
    }
}
