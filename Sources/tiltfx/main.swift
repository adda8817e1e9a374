// `tiltfx`: the renderer. Its commands live in TiltFXMain, so that the package can ship tilt and tiltfx as one
// program (Sources/tilt-multicall).
import TiltFXMain

runTiltFX()
