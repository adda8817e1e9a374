import CEGL
import TiltCore
import TiltEffects

#if canImport(Glibc)
    import Glibc
#endif

/// What a preset costs to draw on this GL, measured: whether it draws only when something moves or every frame,
/// and milliseconds per megapixel of a frame while the tilt changes (`tiltfx presets`, `tiltfx check`).
///
/// Milliseconds per megapixel scale to an output: a 1920×1080 output is 2.07 MP, so 10 ms/MP is about 21 ms a frame
/// there, and a quarter of that at `--scale 0.5`.
package struct PresetCost: Sendable, Hashable {
    /// When the preset draws.
    package enum Motion: String, Sendable, Hashable {
        /// Only when the tilt, the picture or the window changes: nothing at rest.
        case staticWhenStill = "static when still"
        /// Every frame (its effect reads the time or the previous frame), moving or not.
        case animated
    }

    /// When it draws.
    package var motion: Motion
    /// Milliseconds of GL work per megapixel of a frame (the median of the frames measured).
    package var msPerMegapixel: Double

    /// `animated, 12.5 ms/MP`.
    package var summary: String {
        "\(motion.rawValue), \(String(printf: "%.1f", msPerMegapixel)) ms/MP"
    }

    /// Frames measured, after one drawn unmeasured (its first use of each texture and program).
    package static let frames = 5

    /// Measures `preset` in the GL context current on this thread: draws a `width`×`height` frame with the tilt
    /// changing at each, waiting for the GL to finish (`glFinish`) each time.
    /// - Throws: ``RenderError`` when the preset does not compile or the framebuffer cannot be made.
    package static func measure(_ preset: Preset, width: Int = 640, height: Int = 360) throws -> PresetCost {
        let effects = try EffectRenderer(preset: preset)
        let target = try RenderTarget(width: width, height: height)
        var seconds: [Double] = []
        for frame in 0...frames {
            let turn = Double(frame) * 0.07
            let inputs = FrameInputs(
                time: Double(frame) / 60, timeDelta: 1.0 / 60, frame: frame,
                size: SIMD2(Double(width), Double(height)), tilt: SIMD2(0.2 * sin(turn), 0.2 * cos(turn)))
            let start = monotonicSeconds()
            try effects.render(inputs, framebuffer: target.framebuffer, width: width, height: height)
            glFinish()
            if frame > 0 { seconds.append(monotonicSeconds() - start) }
        }
        let median = seconds.sorted()[seconds.count / 2]
        let megapixels = Double(width * height) / 1_000_000
        return PresetCost(
            motion: effects.isAnimated ? .animated : .staticWhenStill, msPerMegapixel: median * 1000 / megapixels)
    }
}
