import Testing
import TiltCore
import TiltEffects
import TiltRenderTestKit
import TiltTestKit

@testable import TiltGL
@testable import TiltRender

/// A moving picture under a first pass that only copies it (misty-glass) is fitted straight into that pass's padded
/// output (`EffectRenderer.fitsIntoFirstPass`): what is drawn must be what the copy drew.
@Suite(.serialized) struct VideoFirstPassFitTests {
    @Test func fittingIntoTheFirstPassDrawsWhatTheCopyDrew() throws {
        _ = GLTestEnvironment.configured
        let preset = try GLTestEnvironment.library.load("misty-glass")
        // 40x36 letterboxes the 64x48 ball (contain): transparent bands, and padding beyond them.
        let picture = try PictureContent.load(path: TestPaths.fixture("ball-64x48.webm"), fit: .contain)
        let plan = PassPlanner.plan(preset, picture: true)
        try #require(plan.count == 2 && plan[0].input == .picture && plan[0].isStatic)
        var copied = plan
        copied[0].isStatic = false  // drawn by its own pass each frame, as before
        var images: [[UInt8]] = []
        for passes in [plan, copied] {
            let renderer = try OffscreenRenderer(
                preset: preset, width: 40, height: 36, picture: picture, passes: passes)
            #expect(renderer.effects.fitsIntoFirstPass == (passes == plan))
            let feed = try #require(PictureFeed(picture: picture, stepped: true))
            try feed.start()
            defer { feed.stop() }
            #expect(try feed.show(at: 1, renderer.effects))
            var frame: [UInt8] = []
            for n in 0..<3 {
                frame = try renderer.render(FrameInputs(frame: n, size: SIMD2(40, 36), tilt: SIMD2(0.2, -0.1)))
            }
            images.append(frame)
        }
        #expect(images[0] == images[1])
        #expect(images[0].contains { $0 != 0 }, "the picture is drawn")
    }
}
