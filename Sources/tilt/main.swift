// `tilt`: the companion command line. Its commands live in TiltMain, so that the package can ship tilt and tiltfx as
// one program (Sources/tilt-multicall).
import TiltMain

await runTilt()
