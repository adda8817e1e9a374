import CEGL
import TiltCore
import TiltEffects
import TiltImage

/// Renders a preset with no display: an EGL surfaceless context and a framebuffer object, read back as pixels.
///
/// Not thread-safe: a GL context is current on the thread that made it, so create and use this on one thread.
package final class OffscreenRenderer {
    private let context: HeadlessContext
    /// The effect renderer currently in use (the last preset that compiled).
    package private(set) var effects: EffectRenderer
    private var output: RenderTarget
    /// Output width in pixels.
    package private(set) var width: Int
    /// Output height in pixels.
    package private(set) var height: Int
    /// The user's picture the first effect shades, if any.
    package let picture: PictureContent?

    /// Creates a headless context and compiles `preset`, drawn on `picture` when one is given.
    /// - Parameter passes: a plan of `preset` to draw instead of `PassPlanner`'s (to compare one with nothing baked).
    /// - Throws: `RenderError` (no GL, a size over the GL's limits, compile error with file:line), `PresetError`, or
    ///   `ImageError` (a picture larger than the GL holds).
    package init(
        preset: Preset, width: Int, height: Int, picture: PictureContent? = nil, passes: [RenderPass]? = nil
    ) throws {
        try Self.checkRange(width: width, height: height)
        context = try HeadlessContext()
        let passes = passes ?? PassPlanner.plan(preset, picture: picture != nil)
        try TargetSizeCheck.check(
            width: width, height: height, passes: passes, limits: .current, renderer: context.rendererName)
        self.width = width
        self.height = height
        self.picture = picture
        output = try RenderTarget(width: width, height: height)
        effects = try EffectRenderer(preset: preset, picture: picture, passes: passes)
    }

    /// Changes the output size, as a window's resize does; the next frame re-bakes the static passes.
    /// - Throws: `RenderError` for a size out of range or over the GL's limits; the old size stays.
    package func resize(width: Int, height: Int) throws(RenderError) {
        try Self.checkRange(width: width, height: height)
        try TargetSizeCheck.check(
            width: width, height: height, passes: effects.passes, limits: .current, renderer: context.rendererName)
        output = try RenderTarget(width: width, height: height)
        self.width = width
        self.height = height
    }

    private static func checkRange(width: Int, height: Int) throws(RenderError) {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            throw RenderError.argument("size \(width)x\(height) is out of range; give WxH between 1x1 and 16384x16384")
        }
    }

    /// The GL renderer in use, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
    package var rendererName: String { context.rendererName }

    /// Recompiles `preset`; on failure the previous shaders stay in use and the error is thrown.
    package func reload(_ preset: Preset) throws {
        effects = try EffectRenderer(preset: preset, picture: picture)
    }

    /// Renders one frame and returns straight-alpha RGBA8 pixels, top row first.
    package func render(_ inputs: FrameInputs) throws(RenderError) -> [UInt8] {
        try draw(inputs)
        return output.readPixels()
    }

    /// Renders one frame with an error message drawn over it, as the window shows a failed reload.
    package func render(_ inputs: FrameInputs, showingError message: String) throws(RenderError) -> [UInt8] {
        try draw(inputs)
        let banner = try ErrorBanner()
        banner.show(message)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), output.framebuffer)
        banner.draw(width: width, height: height)
        return output.readPixels()
    }

    /// Renders one frame and waits for the GPU to finish (for benchmarks; no read-back).
    package func drawAndWait(_ inputs: FrameInputs) throws(RenderError) {
        try draw(inputs)
        glFinish()
    }

    private func draw(_ inputs: FrameInputs) throws(RenderError) {
        var inputs = inputs
        inputs.size = SIMD2(Double(width), Double(height))
        try effects.render(inputs, framebuffer: output.framebuffer, width: width, height: height)
    }

    /// Renders one frame and writes it to `path` as PNG.
    /// - Parameter stage: told as each stage begins (`drawing`, `reading back`, `writing PNG`), so a large frame can
    ///   show how far it got.
    package func renderPNG(
        _ inputs: FrameInputs, to path: String, stage: (String) -> Void = { _ in }
    ) throws(RenderError) {
        stage("drawing")
        try draw(inputs)
        glFinish()
        stage("reading back")
        let pixels = output.readPixels()
        stage("writing PNG")
        do { try PNGFile.write(rgba: pixels, width: width, height: height, to: path) } catch {
            if let problem = error.output { throw .output(OutputFileError(path: error.path, problem: problem)) }
            throw .write(error.path, reason: error.reason)
        }
    }
}
