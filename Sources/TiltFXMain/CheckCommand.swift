import ArgumentParser
import TiltEffects
import TiltRender

/// `tiltfx check`: loads every preset of a presets folder and compiles its shaders, one finding a line.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that every preset of a presets folder (folders, Shadertoy JSON exports) loads and compiles.",
        discussion: """
            Prints one line per finding (ok, note or FAIL), then `tiltfx check: OK` (exit 0) or \
            `tiltfx check: N problems` (exit 1). Without --presets it checks the first standard presets folder \
            found. Shaders are compiled headless (EGL surfaceless); without a GPU set LIBGL_ALWAYS_SOFTWARE=1.
            """)

    @OptionGroup var presets: PresetOptions

    func run() throws {
        try presets.requireAssets()
        var check = PresetCheck(directory: presets.directory, searchPaths: presets.library.searchPaths)
        check.assetDirectory = presets.assets
        let findings = check.run()
        print(PresetCheck.report(findings))
        if PresetCheck.problems(findings) > 0 { throw ExitCode(1) }
    }
}
