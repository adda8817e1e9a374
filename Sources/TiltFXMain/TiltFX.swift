import ArgumentParser
import TiltCommandLine
import TiltGL
import TiltWire

/// `tiltfx`: the motion-reactive effect renderer.
struct TiltFX: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiltfx",
        abstract:
            "Render tilt-driven GLSL effects: headless to PNG or video, in a window, or as the desktop's wallpaper, driven by tiltd.",
        discussion: """
            Presets are folders holding preset.json and GLSL files, searched in --presets DIR, then $TILT_PRESETS, \
            then a Presets/ folder above the executable or the working directory (a clone), then the installed \
            PREFIX/share/tilt/presets beside the program, then tilt/presets in each $XDG_DATA_DIRS folder \
            (default /usr/local/share:/usr/share). `tiltfx presets` lists the folders searched.
            Headless rendering needs no display (EGL surfaceless); without a GPU set LIBGL_ALWAYS_SOFTWARE=1.
            """,
        version: WireProtocol.daemonVersion,
        subcommands: [
            RenderCommand.self, RunCommand.self, PresetsCommand.self, CheckCommand.self, BenchCommand.self,
            ServeCommand.self, WallpaperCommand.self,
        ])

    /// Every error line starts `error: ` (lowercase, as compilers and git write it), ArgumentParser's own too.
    /// README.md, "Conventions".
    static var _errorPrefix: String { "error: " }

    /// Parses the command line (its mistakes in the house style: `exitParsing`) and runs the command.
    static func main() {
        var command: any ParsableCommand
        do { command = try parseAsRoot() } catch { exitParsing(error) }
        do { try command.run() } catch { exit(withError: error) }
    }
}

/// Runs `tiltfx` with the process's arguments: the `tiltfx` executable's whole `main`, and the packaged program's when
/// it is started by that name (Sources/tilt-multicall).
package func runTiltFX() {
    ShaderCompatibility.prepareEnvironment()
    TiltFX.main()
}
