import FoundationEssentials
import Logging
import TiltEffects
import TiltGL
import TiltImage

/// A preset being shown live: its compiled effects, reloaded when its files change, keeping the last good shader
/// when a reload fails.
///
/// Needs the GL context current (it compiles shaders), so it lives on the render loop's thread.
struct LivePreset {
    /// The last preset that loaded and compiled.
    private(set) var preset: Preset
    /// Its compiled effects.
    private(set) var effects: EffectRenderer
    /// Why the last reload failed; `nil` when the shown preset is the one on disk.
    private(set) var problem: String?
    private var watcher: FileWatcher
    private let picture: PictureContent?

    /// Compiles `preset`, drawn on `picture` if given, and watches its files.
    /// - Throws: `RenderError` (compile errors), `PresetError` or `ImageError`.
    init(_ preset: Preset, picture: PictureContent? = nil) throws {
        self.preset = preset
        self.picture = picture
        effects = try EffectRenderer(preset: preset, picture: picture)
        watcher = try FileWatcher(files: preset.files)
    }

    /// Reloads the preset when its files changed since the last call.
    /// - Returns: `nil` when nothing changed; else whether the reload succeeded (on failure ``problem`` says why and
    ///   the last good effects stay).
    mutating func reloadIfChanged(logger: Logger) -> Bool? {
        guard watcher.drain() else { return nil }
        let began = ContinuousClock.now
        do {
            let reloaded = try preset.reloaded()
            effects = try EffectRenderer(preset: reloaded, picture: picture)
            if reloaded.files != preset.files { watcher = try FileWatcher(files: reloaded.files) }
            preset = reloaded
            problem = nil
            logger.info("reloaded '\(preset.name)' in \(began.duration(to: .now))")
            return true
        } catch {
            problem = "\(error)"
            logger.error("reload failed, keeping the last good shader:\n\(error)")
            return false
        }
    }
}
