import TiltFXMain
import TiltMain

// The packaged `tilt` and `tiltfx`: one program installed under both names (hard links, scripts/install), which runs
// the one it was started as. The two share most of their code (the client, the wire, the sensors' logs, fusion,
// swift-nio, the argument parser), so one file instead of two saves about 5 MB of the installed package
// (scripts/release-build). tiltd stays a program of its own: the daemon loads none of the renderer's libraries.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The name this process was started by: the last component of `argv[0]`.
let name = String((CommandLine.arguments.first ?? "").split(separator: "/").last ?? "")

switch name {
case "tilt":
    await runTilt()
case "tiltfx":
    runTiltFX()
default:
    let message =
        "error: this program is tilt and tiltfx in one file and runs as the one it is started by, but it was started "
        + "as '\(name)'; run it through a link named tilt or tiltfx (scripts/install makes both)\n"
    var bytes = Array(message.utf8)
    _ = write(2, &bytes, bytes.count)
    exit(64)
}
