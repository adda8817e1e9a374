import Testing

@testable import TiltEffects

/// Pass planning: colour and distortion chains share a pass; layer effects start padded passes.
@Suite struct PassPlannerTests {
    func effect(_ kind: EffectKind, _ name: String, offset: SIMD2<Double> = .zero, stateful: Bool = false) -> Effect {
        Effect(function: name, kind: kind, file: "/p/\(name).glsl", maxSampleOffset: offset, stateful: stateful)
    }

    @Test func colorAndDistortionChainCompilesToOnePass() {
        let passes = PassPlanner.plan(
            effects: [effect(.color, "a"), effect(.distortion, "b", offset: [3, 3]), effect(.color, "c")],
            shadertoy: nil)
        #expect(passes.count == 1)
        #expect(passes[0].chain == [0, 1, 2])
        #expect(passes[0].input == .transparent)
        #expect(passes[0].outputPadding == .zero)
    }

    @Test func layerEffectIsARenderToTextureBoundaryPaddedByItsOffset() {
        let passes = PassPlanner.plan(
            effects: [
                effect(.color, "a"), effect(.layer, "blur", offset: [6, 4]),
                effect(.distortion, "warp", offset: [2, 1]),
                effect(.color, "tint"),
            ],
            shadertoy: nil)
        #expect(passes.count == 2)
        #expect(passes[0].chain == [0])
        #expect(passes[1].input == .layer(effectIndex: 1))
        #expect(passes[1].chain == [2, 3])
        // The texture the layer reads holds the layer's own reach plus the distortion chained after it.
        #expect(passes[0].outputPadding == SIMD2(8, 5))
        #expect(passes[1].outputPadding == .zero)
    }

    @Test func consecutiveLayerEffectsEachStartAPass() {
        let passes = PassPlanner.plan(
            effects: [effect(.layer, "x", offset: [1, 1]), effect(.layer, "y", offset: [2, 2])],
            shadertoy: "/p/toy.glsl")
        #expect(passes.count == 3)
        #expect(passes[0].input == .shadertoy(file: "/p/toy.glsl"))
        #expect(passes.map(\.outputPadding) == [SIMD2(1, 1), SIMD2(2, 2), .zero])
    }

    @Test func statefulLayerGetsPingPongTexturesAndACopyPass() {
        let passes = PassPlanner.plan(
            effects: [effect(.color, "scene"), effect(.layer, "mist", offset: [2, 2], stateful: true)], shadertoy: nil)
        #expect(passes.count == 3)
        #expect(passes[1].stateful)
        #expect(passes[2].input == .copy)
        #expect(!passes[2].stateful)
    }
}
