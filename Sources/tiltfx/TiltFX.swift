// Placeholder until the renderer lands: keeps the package loadable.
@main
struct TiltFX {
    static func main() {
        print("tiltfx: the renderer is not built yet")
    }
}
