import Foundation
import Testing

@testable import TiltEffects

/// Baking: what each stage reads per frame, static passes, and the static head split off a dynamic pass.
@Suite struct PassBakingTests {
    /// GLSL text per file; a file not listed cannot be read.
    let sources: [String: String] = [
        "/p/plain.glsl": "vec4 f(vec2 p, vec4 c, vec2 size) { return c; } // iTime is not read here\n",
        "/p/toy-static.glsl": "void mainImage(out vec4 o, in vec2 f) { o = vec4(f / iResolution.xy, 0.0, 1.0); }\n",
        "/p/toy-animated.glsl": "void mainImage(out vec4 o, in vec2 f) { o = vec4(sin(iTime)); }\n",
        "/p/uses-tilt.glsl": "vec4 f(vec2 p, vec4 c) { return c * iTilt.x; }\n",
        "/p/uses-mouse.glsl": "vec4 f(vec2 p, vec4 c) { return c * iMouse.x; }\n",
        "/p/commented.glsl":
            "/* iTime, iFrame\n iTilt */ vec4 f(vec2 p, vec4 c) { float iTimeScale = 1.0; return c; }\n",
    ]

    func read(_ path: String) throws -> String {
        guard let text = sources[path] else { throw CocoaError(.fileNoSuchFile) }
        return text
    }

    func effect(
        _ kind: EffectKind, file: String = "/p/plain.glsl", bind: ArgumentBinding? = nil,
        offset: SIMD2<Double> = .zero, stateful: Bool = false
    ) -> Effect {
        let arguments = bind.map { [EffectArgument(name: "v", type: .vec2, binding: $0)] } ?? []
        return Effect(
            function: "f", kind: kind, file: file, arguments: arguments, maxSampleOffset: offset, stateful: stateful)
    }

    func plan(_ effects: [Effect], shadertoy: String? = nil) -> [RenderPass] {
        PassPlanner.plan(effects: effects, shadertoy: shadertoy, readFile: read)
    }

    @Test func bindingsAndBuiltinUniformsGiveTheDependencies() {
        #expect(DependencyAnalysis.dependencies(of: effect(.color, bind: .size), readFile: read).isStatic)
        #expect(DependencyAnalysis.dependencies(of: effect(.color, bind: .constant([1, 2])), readFile: read).isStatic)
        for binding in [ArgumentBinding.tilt, .gravity, .euler, .rotationRate, .attitude] {
            #expect(DependencyAnalysis.dependencies(of: effect(.color, bind: binding), readFile: read) == .motion)
        }
        #expect(DependencyAnalysis.dependencies(of: effect(.color, bind: .time), readFile: read) == .time)
        #expect(DependencyAnalysis.dependencies(of: effect(.color, bind: .pointer), readFile: read) == .pointer)
        #expect(
            DependencyAnalysis.dependencies(of: effect(.color, file: "/p/uses-tilt.glsl"), readFile: read) == .motion)
        #expect(
            DependencyAnalysis.dependencies(of: effect(.color, file: "/p/uses-mouse.glsl"), readFile: read) == .pointer)
        #expect(
            DependencyAnalysis.dependencies(of: effect(.layer, stateful: true), readFile: read) == .previousFrame)
        // Names in comments and longer identifiers that start with a uniform's name do not count.
        #expect(DependencyAnalysis.dependencies(of: effect(.color, file: "/p/commented.glsl"), readFile: read).isStatic)
        // A file that cannot be read is taken to depend on everything: nothing is baked from it.
        #expect(DependencyAnalysis.dependencies(of: effect(.color, file: "/p/missing.glsl"), readFile: read) == .all)
        #expect(DependencyAnalysis.uniforms(inGLSL: "x = samplePrevious(p) + iFrame;") == [.previousFrame, .time])
    }

    @Test func aStaticHeadBeforeADynamicEffectBecomesABakedPass() {
        let passes = plan([
            effect(.color, bind: .size), effect(.color), effect(.color, bind: .tilt), effect(.color, bind: .size),
        ])
        #expect(passes.count == 2)
        #expect(passes[0].input == .transparent)
        #expect(passes[0].chain == [0, 1])
        #expect(passes[0].isStatic)
        #expect(passes[1].input == .baked)
        #expect(passes[1].chain == [2, 3])
        #expect(!passes[1].isStatic)
    }

    @Test func theBakedTextureIsPaddedForTheDistortionsThatFollow() {
        let passes = plan([
            effect(.color), effect(.distortion, bind: .tilt, offset: [4, 2]), effect(.color, bind: .time),
            effect(.distortion, offset: [1.5, 0]),
        ])
        #expect(passes.map(\.input) == [.transparent, .baked])
        #expect(passes[0].outputPadding == SIMD2(6, 2))
        #expect(passes[1].outputPadding == .zero)
    }

    @Test func aShadertoyBaseThatReadsNoTimeIsBakedAndOneThatDoesIsNot() {
        let still = plan([effect(.color, bind: .tilt)], shadertoy: "/p/toy-static.glsl")
        #expect(still.map(\.input) == [.shadertoy(file: "/p/toy-static.glsl"), .baked])
        #expect(still.map(\.isStatic) == [true, false])
        #expect(still[0].chain.isEmpty)
        #expect(still[1].chain == [0])

        let animated = plan([effect(.color, bind: .tilt)], shadertoy: "/p/toy-animated.glsl")
        #expect(animated.count == 1)
        #expect(animated[0].input == .shadertoy(file: "/p/toy-animated.glsl"))
        #expect(!animated[0].isStatic)
    }

    @Test func aDynamicFirstEffectOnATransparentLayerLeavesNothingToBake() {
        let passes = plan([effect(.color, bind: .tilt), effect(.color)])
        #expect(passes.count == 1)
        #expect(passes[0].chain == [0, 1])
        #expect(!passes[0].isStatic)
    }

    @Test func aStaticPassBeforeADynamicLayerIsStaticWhole() {
        let passes = plan([effect(.color), effect(.layer, bind: .time, offset: [3, 3])])
        #expect(passes.count == 2)
        #expect(passes.map(\.isStatic) == [true, false])
        #expect(passes[0].chain == [0])
        #expect(passes[0].outputPadding == SIMD2(3, 3))
    }

    @Test func aPassThatReadsADynamicPassIsDynamic() {
        // The layer effect and the colour after it read nothing per frame, but the pass below them moves.
        let passes = plan([effect(.color, bind: .tilt), effect(.layer, offset: [2, 2]), effect(.color)])
        #expect(passes.count == 2)
        #expect(passes.map(\.isStatic) == [false, false])
        #expect(passes[1].input == .layer(effectIndex: 1))
    }

    @Test func aStaticLayerOverAStaticPassIsBakedAheadOfADynamicChain() {
        let passes = plan([
            effect(.color), effect(.layer, offset: [2, 2]), effect(.distortion, bind: .tilt, offset: [1, 1]),
        ])
        #expect(passes.map(\.input) == [.transparent, .layer(effectIndex: 1), .baked])
        #expect(passes.map(\.isStatic) == [true, true, false])
        #expect(passes.map(\.outputPadding) == [SIMD2(2, 2), SIMD2(1, 1), .zero])
    }

    @Test func aPresetStaticThroughoutDrawsItsOnePassEachFrame() {
        let passes = plan([effect(.color, bind: .size), effect(.distortion)])
        #expect(passes.count == 1)
        #expect(!passes[0].isStatic, "the last pass draws to the output")
    }

    @Test func statefulLayersAndUnreadableFilesAreNeverBaked() {
        let stateful = plan([effect(.color, bind: .tilt), effect(.layer, offset: [2, 2], stateful: true)])
        #expect(stateful.map(\.isStatic) == [false, false, false])
        #expect(stateful.last?.input == .copy)
        let unreadable = plan([effect(.color, file: "/p/missing.glsl"), effect(.color, bind: .tilt)])
        #expect(unreadable.count == 1)
        #expect(!unreadable[0].isStatic)
    }

    @Test func anEffectMarkedNotToBakeStaysInThePassDrawnEachFrame() {
        var cheap = effect(.color, bind: .size)
        cheap.bake = false
        let passes = plan([effect(.color), cheap, effect(.color, bind: .tilt)])
        #expect(passes.map(\.chain) == [[0], [1, 2]], "the static head ends before the effect marked bake: false")
        #expect(passes.map(\.isStatic) == [true, false])
        #expect(plan([cheap, effect(.color, bind: .tilt)]).count == 1)
    }

    @Test func thePresetKeyBakeFalseReachesTheEffect() throws {
        let dir = try PresetTests().temporaryPreset(
            #"{"effects":[{"kind":"color","function":"f","file":"a.glsl","bake":false},"#
                + #"{"kind":"color","function":"g","file":"a.glsl"}]}"#)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let preset = try Preset.load(directory: dir)
        #expect(preset.effects.map(\.bake) == [false, true])
        #expect(PassPlanner.plan(preset).count == 1, "nothing is baked: g reads nothing either, but follows f")
        let tiltSpecular = try PresetLibrary(searchPaths: [PresetTests.repositoryPresets]).load("tilt-specular")
        #expect(PassPlanner.plan(tiltSpecular).count == 1, "tilt-specular's card is cheaper drawn than read back")
    }

    @Test func holoCardDrawsOnlyTheFoilAndTheGlarePerFrame() throws {
        let preset = try PresetLibrary(searchPaths: [PresetTests.repositoryPresets]).load("holo-card")
        let passes = PassPlanner.plan(preset)
        let names = passes.map { pass in pass.chain.map { preset.effects[$0].function } }
        #expect(passes.count == 2)
        #expect(passes.map(\.isStatic) == [true, false])
        #expect(names[0] == ["cardArt"])
        #expect(passes[1].input == .baked)
        #expect(names[1] == ["artDepth", "holoFoil", "glareAndSparkle", "cardTilt"])
    }

    @Test func everyRepositoryPresetNamesWhatItReads() throws {
        let library = PresetLibrary(searchPaths: [PresetTests.repositoryPresets])
        let expected: [String: FrameDependencies] = [
            "holo-card": [.motion, .time], "shadertoy-plasma": [.time, .motion],
            "misty-glass": [.time, .motion, .pointer],
        ]
        for (name, dependencies) in expected {
            let found = DependencyAnalysis.dependencies(of: try library.load(name))
            #expect(found == dependencies, "\(name): \(found)")
        }
    }
}
