import Logging
import TiltEffects

/// `tiltfx render --out FILE.png`: one deterministic frame, optionally re-rendered whenever the preset changes.
public struct StillRenderJob: Sendable {
    /// The preset to draw.
    public var preset: Preset
    /// Output size.
    public var width: Int
    /// Output height.
    public var height: Int
    /// Tilt, radians (x, y).
    public var tilt: SIMD2<Double>
    /// Effect time, seconds.
    public var time: Double
    /// The PNG path.
    public var output: String

    /// Creates a job.
    public init(preset: Preset, width: Int, height: Int, tilt: SIMD2<Double>, time: Double, output: String) {
        self.preset = preset
        self.width = width
        self.height = height
        self.tilt = tilt
        self.time = time
        self.output = output
    }

    private var inputs: FrameInputs {
        FrameInputs(time: time, size: SIMD2(Double(width), Double(height)), tilt: tilt)
    }

    /// Renders the frame and writes the PNG.
    /// - Throws: `RenderError` or `PresetError` with an actionable message.
    public func run() throws {
        let renderer = try OffscreenRenderer(preset: preset, width: width, height: height)
        try renderer.renderPNG(inputs, to: output)
    }

    /// Renders, then watches the preset's files and renders again after each change, until `shouldStop` says so.
    ///
    /// A change recompiles at once (inotify, ~15 ms settle). A compile error is logged with file:line and the last
    /// good shaders keep running; the PNG is rewritten only from shaders that compiled.
    public func watch(logger: Logger, shouldStop: () -> Bool = { false }) throws {
        let renderer = try OffscreenRenderer(preset: preset, width: width, height: height)
        try renderer.renderPNG(inputs, to: output)
        logger.info("wrote \(output); watching \(preset.files.count) files of preset '\(preset.name)'")
        var current = preset
        var watcher = try FileWatcher(files: current.files)
        while !shouldStop() {
            guard watcher.waitForChange(timeoutMilliseconds: 250) else { continue }
            let start = ContinuousClock.now
            do {
                let reloaded = try Preset.load(directory: current.directory)
                try renderer.reload(reloaded)
                if reloaded.files != current.files { watcher = try FileWatcher(files: reloaded.files) }
                current = reloaded
                try renderer.renderPNG(inputs, to: output)
                logger.info("reloaded '\(current.name)' in \(start.duration(to: .now)); wrote \(output)")
            } catch {
                logger.error("reload failed, keeping the last good shader:\n\(error)")
            }
        }
    }
}
