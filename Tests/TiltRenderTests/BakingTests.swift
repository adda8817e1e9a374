import Foundation
import Testing
import TiltEffects
import TiltGL
import TiltRender
import TiltRenderTestKit

/// Static passes are drawn once and reused until the size, the shaders or the content change.
@Suite(.serialized) struct BakingTests {
    static let size = 64
    static let tilts: [SIMD2<Double>] = [[0, 0], [0.2, -0.1], [-0.3, 0.25], [0.1, 0.3], [0.05, -0.2]]

    func inputs(_ frame: Int, size: Int = size) -> FrameInputs {
        FrameInputs(
            time: Double(frame) / 30, frame: frame, size: SIMD2(Double(size), Double(size)),
            tilt: Self.tilts[frame % Self.tilts.count])
    }

    /// holo-card's plan with nothing baked: a reader that fails makes every stage count as dynamic.
    func unbakedPlan(_ preset: Preset) -> [RenderPass] {
        PassPlanner.plan(preset) { _ in throw CocoaError(.fileReadNoPermission) }
    }

    /// Renders `frames` frames of `preset` with its own plan, then with nothing baked, and compares them.
    ///
    /// The frames vary the tilt and the time. holo-card is compared flat: its distortions (the art's parallax and
    /// the card's 3D tilt) look up the baked card between pixels, smoothing detail that the unbaked shader samples
    /// point by point, which is a resampling difference rather than a wrong texture.
    @Test(arguments: [("foil", true), ("holo-card", false)])
    func bakedFramesMatchAnUnbakedRendering(preset name: String, tilted: Bool) throws {
        _ = GLTestEnvironment.configured
        let preset = try GLTestEnvironment.library.load(name)
        let frames = 10
        func frame(_ n: Int) -> FrameInputs {
            var f = inputs(n)
            if !tilted { f = FrameInputs(time: f.time, frame: n, size: f.size) }
            return f
        }
        // One renderer at a time: each has its own GL context, current from its creation on.
        let baked = try OffscreenRenderer(preset: preset, width: Self.size, height: Self.size)
        let passes = baked.effects.passes.count
        #expect(baked.effects.passes.first?.isStatic == true, "\(name) bakes its first pass")
        var bakedFrames: [[UInt8]] = []
        for n in 0..<frames {
            bakedFrames.append(try baked.render(frame(n)))
            #expect(baked.effects.passesDrawnLastFrame == (n == 0 ? passes : passes - 1))
        }
        #expect(baked.effects.drawCounts == [1] + Array(repeating: frames, count: passes - 1))

        let unbaked = try OffscreenRenderer(
            preset: preset, width: Self.size, height: Self.size, passes: unbakedPlan(preset))
        #expect(unbaked.effects.passes.count == passes - 1, "the unbaked plan keeps the static head in its pass")
        for n in 0..<frames {
            let diff = ImageDifference(bakedFrames[n], try unbaked.render(frame(n)))
            // The baked head is rounded to 8 bits before the effects that follow: a little noise, no more.
            #expect(diff.meanAbsolute < 1.0, "\(name) frame \(n): mean difference \(diff.meanAbsolute)")
            #expect(diff.fractionOver32 < 0.005, "\(name) frame \(n): \(diff.fractionOver32 * 100)% differ")
        }
        #expect(unbaked.effects.drawCounts == Array(repeating: frames, count: passes - 1))

        // The reused texture is what a fresh renderer bakes: the last frame equals a fresh render of it.
        let fresh = try OffscreenRenderer(preset: preset, width: Self.size, height: Self.size)
        #expect(try fresh.render(frame(frames - 1)) == bakedFrames[frames - 1])
    }

    @Test func aResizeAndAnInvalidationReBake() throws {
        _ = GLTestEnvironment.configured
        let preset = try GLTestEnvironment.library.load("holo-card")
        let renderer = try OffscreenRenderer(preset: preset, width: Self.size, height: Self.size)
        for frame in 0..<3 { _ = try renderer.render(inputs(frame)) }
        #expect(renderer.effects.drawCounts == [1, 3])

        try renderer.resize(width: 40, height: 40)
        let resized = try renderer.render(inputs(3, size: 40))
        _ = try renderer.render(inputs(4, size: 40))
        #expect(renderer.effects.drawCounts == [2, 5], "a resize draws the card again, once")

        renderer.effects.invalidateStaticPasses()
        _ = try renderer.render(inputs(5, size: 40))
        _ = try renderer.render(inputs(6, size: 40))
        #expect(renderer.effects.drawCounts == [3, 7], "new content draws the card again, once")

        let fresh = try OffscreenRenderer(preset: preset, width: 40, height: 40)
        #expect(try fresh.render(inputs(3, size: 40)) == resized, "the re-baked card is drawn at the new size")
    }

    @Test func aHotReloadBakesWithTheNewShaders() throws {
        _ = GLTestEnvironment.configured
        let copy = try GLTestEnvironment.copyPreset("holo-card")
        defer { try? FileManager.default.removeItem(atPath: copy.root) }
        let renderer = try OffscreenRenderer(preset: try Preset.load(directory: copy.directory), width: 32, height: 32)
        let before = try renderer.render(inputs(1, size: 32))
        _ = try renderer.render(inputs(2, size: 32))
        // The static card art changes: the table around the card turns red.
        let card = copy.directory + "/card.glsl"
        let text = try String(contentsOfFile: card, encoding: .utf8)
        try text.replacingOccurrences(of: "vec3(0.045, 0.04, 0.06)", with: "vec3(0.9, 0.0, 0.0)")
            .write(toFile: card, atomically: true, encoding: .utf8)
        try renderer.reload(try Preset.load(directory: copy.directory))
        let after = try renderer.render(inputs(1, size: 32))
        #expect(renderer.effects.drawCounts == [1, 1], "the new renderer bakes the new card art on its first frame")
        #expect(after[0] > before[0] + 100, "the corner shows the new table: \(before[0]) → \(after[0])")
    }

    @Test func presetsWithNothingStaticDrawEveryPassEachFrame() throws {
        _ = GLTestEnvironment.configured
        for name in ["shadertoy-plasma", "parallax", "tilt-specular"] {
            let preset = try GLTestEnvironment.library.load(name)
            let renderer = try OffscreenRenderer(preset: preset, width: 16, height: 16)
            for frame in 0..<3 { _ = try renderer.render(inputs(frame, size: 16)) }
            #expect(renderer.effects.passes.allSatisfy { !$0.isStatic }, "\(name)")
            #expect(renderer.effects.drawCounts.allSatisfy { $0 == 3 }, "\(name): \(renderer.effects.drawCounts)")
        }
    }
}
