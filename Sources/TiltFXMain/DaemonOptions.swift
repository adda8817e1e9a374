import ArgumentParser

/// `--socket PATH`: the tiltd a command reads motion from (`run`, `render`, `serve`, `wallpaper`).
struct DaemonSocketOption: ParsableArguments {
    @Option(help: "The tiltd socket (default: $TILTD_SOCKET or $XDG_RUNTIME_DIR/tiltd.sock).")
    var socket: String?
}

/// `--power-policy`: how a live run follows the power state (`run`, `wallpaper`).
struct PowerPolicyOption: ParsableArguments {
    @Option(
        name: .customLong("power-policy"),
        help: "auto (follow the power state and the preset), or always full, capped or still.")
    var policy: PowerPolicyChoice = .auto
}
