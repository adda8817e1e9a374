import FoundationEssentials
import Glibc
import Logging
import TiltCore
import TiltEffects
import TiltGL

/// Headless frames-per-second for presets at given sizes.
package struct Benchmark: Sendable {
    /// One measurement.
    package struct Result: Sendable, CustomStringConvertible {
        /// The preset.
        package var preset: String
        /// Width.
        package var width: Int
        /// Height.
        package var height: Int
        /// Frames drawn.
        package var frames: Int
        /// Seconds taken.
        package var seconds: Double
        /// Passes drawn over the measured frames (static passes are drawn once, before them, and reused).
        package var passesDrawn: Int
        /// Passes in the preset's plan.
        package var passCount: Int
        /// Video frames uploaded over the measured frames, for a moving picture; `nil` for none.
        package var videoFrames: Int? = nil
        /// Frames per second.
        package var fps: Double { Double(frames) / max(seconds, 1e-9) }
        /// Passes drawn per measured frame.
        package var passesPerFrame: Double { Double(passesDrawn) / Double(max(frames, 1)) }

        package var description: String {
            let name = preset.padded(to: 18)
            let size = "\(width)x\(height)".padded(to: 10)
            let perFrame =
                passesPerFrame == passesPerFrame.rounded()
                ? "\(Int(passesPerFrame))" : String(printf: "%.1f", passesPerFrame)
            return
                "\(name) \(size) \(String(printf: "%8.1f", fps)) fps  "
                + "(\(frames) frames in \(String(printf: "%.2f", seconds)) s, \(perFrame) of \(passCount) passes per frame"
                + (videoFrames.map { ", \($0) video frames uploaded" } ?? "") + ")"
        }
    }

    /// Renders `preset` at `width`×`height` for about `seconds` (after one warm-up frame), waiting for each frame.
    package static func measure(
        preset: Preset, width: Int, height: Int, seconds: Double, picture: PictureContent? = nil
    ) throws -> Result {
        let renderer = try OffscreenRenderer(preset: preset, width: width, height: height, picture: picture)
        // A moving picture plays live, as in `tiltfx run`: each frame uploads the newest video frame, if one came.
        let feed = PictureFeed(picture: picture)
        try feed?.start()
        defer { feed?.stop() }
        // The tilt sweeps slowly, gravity following it, so a preset's highlight and simulation move as they would on
        // screen.
        var sweep = ScriptedMotion { inputs, t in inputs.hold(tilt: SIMD2(0.3 * sin(t), 0.3 * cos(t * 0.7))) }
        var shownBefore = 0
        var drawnBefore = 0
        let sink = OffscreenSink(renderer)
        var loop = FrameLoop(pacing: .timed(seconds: seconds), logger: Logger(label: "tiltfx.bench"))
        loop.afterWarmUp = {
            shownBefore = feed?.framesShown ?? 0
            drawnBefore = renderer.effects.drawCounts.reduce(0, +)
        }
        let outcome = try loop.run(sink: sink, motion: &sweep, picture: feed)
        return Result(
            preset: preset.name, width: width, height: height, frames: outcome.frames, seconds: outcome.seconds,
            passesDrawn: renderer.effects.drawCounts.reduce(0, +) - drawnBefore,
            passCount: renderer.effects.passes.count, videoFrames: feed.map { $0.framesShown - shownBefore })
    }

    /// GL renderer name, from a throwaway context.
    package static func rendererName() throws -> String {
        // The context must outlive the query: `rendererName` reads the current GL context, not `self`, so an
        // optimised build could otherwise release the context first and read no renderer at all.
        let context = try HeadlessContext()
        return withExtendedLifetime(context) { context.rendererName }
    }
}
