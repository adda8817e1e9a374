import Foundation
import Testing
import TiltEffects
import TiltGL
import TiltImage
import TiltRender
import TiltRenderTestKit
import TiltTestKit

/// A failed reload is shown on screen with its file:line, over the last good frame; and the window path runs.
@Suite(.serialized) struct ErrorOverlayTests {
    @Test func errorPanelShowsTextOverTheLastGoodFrame() throws {
        _ = GLTestEnvironment.configured
        let renderer = try OffscreenRenderer(
            preset: try GLTestEnvironment.library.load("tilt-specular"), width: 400, height: 240)
        let inputs = FrameInputs(size: [400, 240])
        let clean = try renderer.render(inputs)
        let marked = try renderer.render(
            inputs, showingError: "/presets/x/specular.glsl:26:36: error: `undefinedThing' undeclared")
        let out = TestPaths.temporaryDirectory("tiltfx").appendingPathComponent("error-overlay.png").path
        try PNGFile.write(rgba: marked, width: 400, height: 240, to: out)
        // Top panel: dark red with white glyph pixels; middle of the frame: unchanged.
        var white = 0
        var red = 0
        for y in 8..<30 {
            for x in 8..<392 {
                let p = 4 * (y * 400 + x)
                if marked[p] > 240 && marked[p + 1] > 240 { white += 1 }
                if Int(marked[p]) > Int(marked[p + 1]) + 40 { red += 1 }
            }
        }
        #expect(white > 300, "text pixels in \(out)")
        #expect(red > 2000, "panel pixels in \(out)")
        let centre = 4 * (200 * 400 + 200)
        #expect(marked[centre..<centre + 4] == clean[centre..<centre + 4])
    }

    @Test func windowRunsOnSDLOffscreenDriverAndFallsBackToThePointer() throws {
        let r = try TiltFXProcess.run(
            [
                "run", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "holo-card", "--size", "64x64",
                "--seconds", "1.5", "--socket", "/tmp/tiltfx-no-daemon-\(getpid()).sock",
            ], environment: ["SDL_VIDEODRIVER": "offscreen"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("using the pointer as tilt"), "stderr: \(r.stderr)")
    }
}
