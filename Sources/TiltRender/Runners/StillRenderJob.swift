import FoundationEssentials
import Logging
import TiltCore
import TiltEffects
import TiltGL
import TiltImage

/// `tiltfx render --out FILE.png`: one deterministic frame, optionally re-rendered whenever the preset changes.
package struct StillRenderJob: Sendable {
    /// The preset to draw.
    package var preset: Preset
    /// Output size.
    package var width: Int
    /// Output height.
    package var height: Int
    /// Tilt, radians (x, y).
    package var tilt: SIMD2<Double>
    /// Effect time, seconds.
    package var time: Double
    /// The PNG path.
    package var output: String
    /// The user's picture the first effect shades, if any.
    package var picture: PictureContent?
    /// What a Shadertoy webcam channel shows; `nil`: a test pattern.
    package var webcam: VideoInput?

    /// Creates a job.
    package init(
        preset: Preset, width: Int, height: Int, tilt: SIMD2<Double>, time: Double, output: String,
        picture: PictureContent? = nil, webcam: VideoInput? = nil
    ) {
        self.picture = picture
        self.webcam = webcam
        self.preset = preset
        self.width = width
        self.height = height
        self.tilt = tilt
        self.time = time
        self.output = output
    }

    /// Frames of at least this many pixels report each stage as it begins (a 16k still takes a while).
    package static let largeFramePixels = 4_000_000

    /// Renders the frame and writes the PNG; a frame of ``largeFramePixels`` or more logs each stage with the time
    /// so far, so a long render is not silent.
    /// - Throws: `RenderError` or `PresetError` with an actionable message.
    package func run(logger: Logger? = nil) throws {
        let start = ContinuousClock.now
        let large = width * height >= Self.largeFramePixels
        func elapsed() -> String { String(printf: "%.1f s", start.duration(to: .now).inSeconds) }
        if large {
            let megapixels = String(printf: "%.0f", Double(width * height) / 1e6)
            logger?.info("rendering \(width)x\(height) (\(megapixels) Mpx): compiling the shaders")
        }
        let renderer = try OffscreenRenderer(preset: preset, width: width, height: height, picture: picture)
        try draw(with: renderer) { stage in
            if large { logger?.info("rendering \(width)x\(height): \(stage) (\(elapsed()))") }
        }
        if large { logger?.info("wrote \(output) in \(elapsed())") }
    }

    /// Renders, then watches the preset's files and renders again after each change, until `shouldStop` says so.
    ///
    /// A change recompiles at once (inotify, ~15 ms settle). A compile error is logged with file:line and the last
    /// good shaders keep running; the PNG is rewritten only from shaders that compiled. A preset that does not
    /// compile at the start is waited on the same way: the first save that compiles writes the PNG.
    package func watch(logger: Logger, shouldStop: () -> Bool = { false }) throws {
        var current = preset
        var renderer: OffscreenRenderer?
        // Watching starts before the first picture is written: a save made as soon as it appears is not missed.
        var watcher = try FileWatcher(files: current.files)
        do {
            renderer = try OffscreenRenderer(preset: preset, width: width, height: height, picture: picture)
            if let renderer { try draw(with: renderer) }
            logger.info("wrote \(output); watching \(preset.files.count) files of preset '\(preset.name)'")
        } catch  where Self.isFixedByAnEdit(error) {
            let wait = "waiting for a fix (save its files to try again, Ctrl-C stops)"
            logger.error("preset '\(preset.name)' does not compile; \(wait):\n\(error)")
        }
        while !shouldStop() {
            guard watcher.waitForChange(timeoutMilliseconds: 250) else { continue }
            let start = ContinuousClock.now
            do throws(any Error) {
                let reloaded = try current.reloaded()
                if reloaded.files != current.files { watcher = try FileWatcher(files: reloaded.files) }
                if let renderer {
                    try renderer.reload(reloaded)
                } else {
                    renderer = try OffscreenRenderer(preset: reloaded, width: width, height: height, picture: picture)
                }
                current = reloaded
                if let renderer { try draw(with: renderer) }
                logger.info("reloaded '\(current.name)' in \(start.duration(to: .now)); wrote \(output)")
            } catch {
                let kept = renderer == nil ? "still waiting for a preset that compiles" : "keeping the last good shader"
                logger.error("reload failed, \(kept):\n\(error)")
            }
        }
    }

    /// Whether `error` is one that saving the preset's files can fix (a shader or preset.json problem), rather than
    /// one of the machine or the arguments (no GL, a size over the limits, an unwritable output).
    static func isFixedByAnEdit(_ error: any Error) -> Bool {
        if error is PresetError || error is ImageError { return true }
        return (error as? RenderError)?.isCompileError ?? false
    }
}
