import ArgumentParser

/// `tiltfx`: the motion-reactive effect renderer.
@main
struct TiltFX: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiltfx",
        abstract: "Render tilt-driven GLSL effects: headless to PNG, or in a window driven by tiltd.",
        discussion: """
            Presets are folders holding preset.json and GLSL files, searched in --presets DIR, then $TILT_PRESETS, \
            then a Presets/ folder above the executable or the working directory, then /usr/share/tilt/presets.
            Headless rendering needs no display (EGL surfaceless); without a GPU set LIBGL_ALWAYS_SOFTWARE=1.
            """,
        subcommands: [RenderCommand.self, RunCommand.self, PresetsCommand.self, CheckCommand.self, BenchCommand.self])

    /// Every error line starts `error: ` (lowercase, as compilers and git write it), ArgumentParser's own too.
    /// README.md, "Conventions".
    static var _errorPrefix: String { "error: " }
}
