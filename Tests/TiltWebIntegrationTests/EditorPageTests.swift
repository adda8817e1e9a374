import Foundation
import Testing
import TiltTestKit

/// The editor page (`Web/index.html`) in real headless Chromium against the real `tiltfx serve` and `tiltd`.
@Suite(
    "Editor page in Chromium", .serialized,
    .enabled(if: HeadlessChromium.isAvailable, "chromium is not installed (scripts/bootstrap installs it)"))
struct EditorPageTests {
    /// holo-card's card.glsl: line 16 is a blank line between two functions, where the test inserts a bad line.
    static let brokenLine = 16

    @Test("the WebGL2 preview draws holo-card and follows the tilt; WebGL's and the server's errors are shown")
    func previewAndErrors() throws {
        let pages = try ServedPages()
        let browser = try HeadlessChromium()
        try browser.open(
            pages.page("index.html", "test=1&preset=holo-card&webglBreak=1&break=card.glsl:\(Self.brokenLine)"))
        let result = try browser.testResult()

        // The page opened the preset through /edit and compiled every pass in WebGL2.
        #expect(result["preset"] as? String == "holo-card")
        #expect((result["files"] as? [String])?.contains("card.glsl") == true)
        #expect((result["passes"] as? Int ?? 0) >= 1)
        // It draws: a card, not one flat colour.
        #expect((result["distinctColours"] as? Int ?? 0) > 20, "\(result)")
        // Two real frames from /motion whose tilts differ draw differently, at the same time value; the same frame
        // twice draws the same pixels, so the difference is the tilt's.
        #expect((result["frames"] as? Int ?? 0) >= 2)
        let a = result["tiltA"] as? [Double] ?? [], b = result["tiltB"] as? [Double] ?? []
        #expect(a.count == 2 && b.count == 2 && hypot(a[0] - b[0], a[1] - b[1]) > 0.05, "\(result)")
        #expect((result["differing"] as? Double ?? 0) > 0.01, "\(result)")
        #expect(result["repeatDiffering"] as? Double == 0, "\(result)")

        // A program WebGL itself refuses is reported under the preview, which keeps drawing the last good one.
        let previewError = result["previewError"] as? String
        #expect(previewError?.contains("WebGL fragment error") == true, "\(previewError ?? "nil")")
        #expect(previewError?.contains("tiltUndefined") == true, "\(previewError ?? "nil")")
        #expect(result["afterWebGLError"] as? Double == 0)

        // The broken line came back from the server's compiler at its file and line, and is marked there.
        let errors = result["brokenErrors"] as? [[String: Any]] ?? []
        #expect(
            errors.contains { $0["file"] as? String == "card.glsl" && $0["line"] as? Int == Self.brokenLine },
            "\(errors)")
        #expect(result["markedLines"] as? [Int] == [Self.brokenLine], "\(result)")
        let marker = try browser.evaluate(
            "document.querySelector('#gutter .error[data-line=\"\(Self.brokenLine)\"]')?.title ?? null")
        #expect((marker as? String)?.isEmpty == false, "no error marker on line \(Self.brokenLine) in the gutter")
        let message = try browser.evaluate("document.getElementById('line-message').textContent")
        #expect((message as? String)?.hasPrefix("card.glsl:\(Self.brokenLine): ") == true, "\(message ?? "nil")")
        #expect((result["statusText"] as? String)?.contains("error") == true)
    }
}
