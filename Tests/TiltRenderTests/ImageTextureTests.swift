import Testing
import TiltCore
import TiltEffects
import TiltRender
import TiltRenderTestKit
import TiltTestKit

@testable import TiltGL
@testable import TiltImage
@testable import TiltRender

/// Texel preparation (premultiplied in linear light, shrinking) and the upload's size limit.
@Suite(.serialized) struct ImageTextureTests {
    @Test func premultiplicationHappensInLinearLightAndKeepsOpaqueAndClearPixels() {
        let image = DecodedImage(
            width: 3, height: 1, pixels: [200, 100, 50, 255, 200, 100, 50, 0, 200, 100, 50, 128])
        let texels = image.premultipliedTexels(sRGB: true)
        #expect(Array(texels[0..<4]) == [200, 100, 50, 255])
        #expect(Array(texels[4..<8]) == [0, 0, 0, 0])
        // Half alpha halves the light, which is about 0.73 of the encoded value, not 0.5.
        let half = SRGBTransfer.encode(SRGBTransfer.linear[200] * 128 / 255)
        #expect(texels[8] == half)
        #expect(half > 140 && half < 152)
        #expect(texels[11] == 128)
        let plain = image.premultipliedTexels(sRGB: false)
        #expect(Array(plain[8..<12]) == [100, 50, 25, 128])
    }

    @Test func theSRGBCurveRoundTripsEveryByte() {
        for v in 0..<256 { #expect(SRGBTransfer.encode(SRGBTransfer.linear[v]) == UInt8(v)) }
    }

    @Test func downscalingAveragesBlocksInLinearLightWeightedByAlpha() {
        // Black and white in a 2x1 block average to linear 0.5, which encodes to 188, not 128.
        let stripes = DecodedImage(
            width: 4, height: 1, pixels: [0, 0, 0, 255, 255, 255, 255, 255, 9, 9, 9, 0, 40, 80, 120, 255])
        let small = stripes.downscaled(toFit: 2)
        #expect(small.width == 2 && small.height == 1)
        #expect(small.pixel(x: 0, y: 0) == SIMD4(188, 188, 188, 255))
        // A transparent pixel adds no colour: the block keeps the opaque pixel's colour at half alpha.
        #expect(small.pixel(x: 1, y: 0) == SIMD4(40, 80, 120, 128))
        #expect(stripes.downscaled(toFit: 4) == stripes)
        let odd = TestPictures.pattern(width: 7, height: 5).downscaled(toFit: 3)
        #expect(odd.width == 3 && odd.height == 2)
    }

    @Test func aPictureOverTheLimitIsShrunkWithANoticeOrRefusedNamingTheLimit() throws {
        _ = GLTestEnvironment.configured
        let context = try HeadlessContext()
        let picture = TestPictures.pattern(width: 20, height: 6)
        var notices: [String] = []
        let texture = try ImageTexture(image: picture, path: "big.png", maxTextureSize: 8) { notices.append($0) }
        #expect(texture.width == 7 && texture.height == 2)
        #expect(notices.count == 1)
        #expect(notices.first?.contains("big.png is 20x6, larger than this GL's GL_MAX_TEXTURE_SIZE 8") == true)
        #expect(texture.notice == notices.first)
        let refused = try #require(throws: ImageError.self) {
            try ImageTexture(
                image: picture, path: "big.png", options: .init(oversize: .refuse), maxTextureSize: 8)
        }
        #expect(refused.kind == .overTextureLimit)
        #expect(refused.description.contains("GL_MAX_TEXTURE_SIZE 8"))
        let fits = try ImageTexture(image: picture, path: "ok.png", options: .init(filter: .mipmap, wrap: .mirror))
        #expect(fits.width == 20 && fits.notice == nil)
        withExtendedLifetime(context) {}
    }

    @Test func theRealGLLimitIsAsked() throws {
        _ = GLTestEnvironment.configured
        let context = try HeadlessContext()
        let limit = GLLimits.current.maxTextureSize
        let wide = DecodedImage(width: limit + 1, height: 1, pixels: [UInt8](repeating: 200, count: (limit + 1) * 4))
        var notices: [String] = []
        let texture = try ImageTexture(image: wide, path: "wide.png") { notices.append($0) }
        #expect(texture.width == (limit + 2) / 2)
        #expect(notices.first?.contains("GL_MAX_TEXTURE_SIZE \(limit)") == true)
        withExtendedLifetime(context) {}
    }
}
