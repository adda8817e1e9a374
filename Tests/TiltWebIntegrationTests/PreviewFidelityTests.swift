import Foundation
import Testing
import TiltImage
import TiltRender
import TiltTestKit

/// The editor's WebGL2 preview (SwiftShader in Chromium) against `tiltfx render` (Mesa's llvmpipe) for the same
/// preset, tilt, time and size: the preview must draw what tiltfx draws, not just something.
@Suite(
    "Preview against tiltfx render", .serialized,
    .enabled(if: HeadlessChromium.isAvailable, "chromium is not installed (scripts/bootstrap installs it)"))
struct PreviewFidelityTests {
    /// The presets compared: a baked pass with textures (holo-card), a plain chain (tilt-specular), a Shadertoy
    /// `mainImage` reading iGravity (shadertoy-plasma). Not misty-glass, whose raindrop simulation and blur only
    /// tiltfx draws; not foil or parallax: their noise is
    /// `fract(sin(dot(p, k)) * 43758.5)`, and sin of such large arguments differs from one GL to another in the
    /// last bits, which that hash multiplies into a different grain (foil: mean 5.8, parallax: 3.0 with outliers).
    @Test(
        "the preview matches tiltfx render's PNG",
        arguments: ["holo-card", "tilt-specular", "shadertoy-plasma"])
    func matchesTiltfx(preset: String) throws {
        let pages = try ServedPages()
        let (width, height) = (480, 360)
        let png = pages.directory.appendingPathComponent("\(preset).png").path
        let render = try ChildProcess.run(
            TestPaths.executable("tiltfx"),
            [
                "render", "--presets", TestPaths.repositoryRoot.appendingPathComponent("Presets").path, "--preset",
                preset, "--tilt", "0.2,-0.1", "--time", "1.5", "--size", "\(width)x\(height)", "--out", png,
            ], environment: ["LIBGL_ALWAYS_SOFTWARE": "1"])
        #expect(render.status == 0, "\(render.stderr)")
        let expected = try ImageDecoder.load(path: png)

        let browser = try HeadlessChromium()
        try browser.open(pages.page("index.html", "test=1&preset=\(preset)&reference=0.2,-0.1,1.5"))
        let result = try browser.testResult()
        #expect(result["canvas"] as? [Int] == [width, height])
        let got = try #require(Data(base64Encoded: result["reference"] as? String ?? ""))
        try #require(got.count == width * height * 4)

        // The canvas is premultiplied, rows bottom-up; the PNG straight alpha, rows top-down. Compare premultiplied.
        var total = 0.0, worst = 0, far = 0
        for y in 0..<height {
            for x in 0..<width {
                let e = expected.pixel(x: x, y: y)
                let g = (height - 1 - y) * width * 4 + x * 4
                let alpha = Double(e[3]) / 255
                for c in 0..<4 {
                    let want = c == 3 ? Double(e[3]) : (Double(e[c]) * alpha).rounded()
                    let d = Int(abs(Double(got[g + c]) - want))
                    total += Double(d)
                    worst = max(worst, d)
                    if d > 24 { far += 1 }
                }
            }
        }
        let mean = total / Double(width * height * 4)
        // Two GL implementations round differently (and sin/cos differ in the last bits): allow a small mean and a
        // few outliers, never a different picture.
        #expect(mean < 2.0, "mean difference \(mean), worst \(worst), \(far) channels off by more than 24")
        #expect(Double(far) / Double(width * height * 4) < 0.005, "\(far) channels off by more than 24 (mean \(mean))")
    }
}
