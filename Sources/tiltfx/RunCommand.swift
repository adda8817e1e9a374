import ArgumentParser
import Logging
import TiltEffects
import TiltRender

/// `tiltfx run`: a window driven by tiltd, or by the pointer when no daemon answers.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Show a preset in a window (X11 or Wayland), driven by tiltd or, without it, by the pointer.",
        discussion:
            "Edits to the preset's files reload within 100 ms; a compile error keeps the last good shader. Esc quits.")

    @OptionGroup var presets: PresetOptions

    @Option(help: "The preset's name (see `tiltfx presets`) or a path to a preset folder.")
    var preset: String

    @Option(help: "Window size, WxH.")
    var size: PixelSize = PixelSize(width: 720, height: 960)

    @Option(help: "The tiltd socket (default: $TILTD_SOCKET or $XDG_RUNTIME_DIR/tiltd.sock).")
    var socket: String?

    @Option(help: "Close the window after this many seconds.")
    var seconds: Double?

    func run() throws {
        let loaded = try presets.library.load(preset)
        try WindowRunner(preset: loaded, width: size.width, height: size.height, socketPath: socket, duration: seconds)
            .run(logger: Logger(label: "tiltfx"))
    }
}
