import Foundation
import Testing
import TiltEffects
import TiltGL
import TiltRender
import TiltRenderTestKit

/// A `--size` over the GL's limits is refused up front with the real limit, counting the padding of layer passes.
@Suite(.serialized) struct SizeLimitTests {
    static let limits = GLLimits(maxTextureSize: 16384, maxRenderbufferSize: 16384, maxViewport: SIMD2(16384, 16384))

    @Test func theLargestTargetIsTheOutputPlusTheLayerPadding() throws {
        let mistyGlass = PassPlanner.plan(try GLTestEnvironment.library.load("misty-glass"))
        #expect(TargetSizeCheck.largestTarget(width: 100, height: 50, passes: mistyGlass) == SIMD2(180, 130))
        #expect(TargetSizeCheck.largestOutput(passes: mistyGlass, limits: Self.limits) == SIMD2(16304, 16304))
        let foil = PassPlanner.plan(try GLTestEnvironment.library.load("foil"))
        #expect(TargetSizeCheck.largestTarget(width: 100, height: 50, passes: foil) == SIMD2(100, 50))
    }

    @Test func aSizeThatFitsPassesAndOneThatDoesNotNamesTheLimitAndWhatFits() throws {
        let passes = PassPlanner.plan(try GLTestEnvironment.library.load("misty-glass"))
        try TargetSizeCheck.check(width: 16304, height: 16304, passes: passes, limits: Self.limits, renderer: "test")
        let error = #expect(throws: RenderError.self) {
            try TargetSizeCheck.check(
                width: 16384, height: 16384, passes: passes, limits: Self.limits, renderer: "llvmpipe")
        }
        let text = error?.description ?? ""
        #expect(text.contains("16384x16384 needs a 16464x16464 render target"), "\(text)")
        #expect(text.contains("over the limit of 16384x16384"), "\(text)")
        #expect(text.contains("GL_MAX_TEXTURE_SIZE 16384, GL_MAX_RENDERBUFFER_SIZE 16384"), "\(text)")
        #expect(text.contains("at most 16304x16304"), "\(text)")
    }

    @Test func theSmallestLimitCountsAndAnUnknownOneIsIgnored() {
        let limits = GLLimits(maxTextureSize: 8192, maxRenderbufferSize: 0, maxViewport: SIMD2(16384, 4096))
        #expect(limits.maxTarget == SIMD2(8192, 4096))
    }

    @Test func theBinarySaysTheRealLimitInsteadOfAskingForMesa() throws {
        // misty-glass pads the layer below its glass by 40 px a side: 16384 wide needs 16464, over llvmpipe's 16384.
        let out = "/tmp/tiltfx-too-large-\(getpid()).png"
        let r = try TiltFXProcess.run([
            "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "misty-glass", "--size", "16384x16",
            "--out", out,
        ])
        #expect(r.status != 0)
        #expect(r.stderr.contains("needs a 16464x96 render target"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("over the limit of") && r.stderr.contains("GL_MAX_TEXTURE_SIZE"), "\(r.stderr)")
        #expect(r.stderr.contains("give a smaller --size"), "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("Install Mesa"), "stderr: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
