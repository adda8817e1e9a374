import Foundation
import Testing
import TiltEffects

/// `"simulation"` in preset.json (textures a CPU simulation fills every frame) and a layer effect's `"blur"`.
@Suite struct PresetSimulationTests {
    /// A preset folder holding `json` and `a.glsl`.
    func preset(_ json: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tilt-sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try json.write(to: dir.appendingPathComponent("preset.json"), atomically: true, encoding: .utf8)
        try "// a\n".write(to: dir.appendingPathComponent("a.glsl"), atomically: true, encoding: .utf8)
        return dir.path
    }

    static let glass = """
        "effects": [{ "kind": "layer", "function": "glass", "file": "a.glsl", "blur": { "radius": 8 },
          "arguments": [{ "name": "m", "type": "texture", "texture": "mist" },
                        { "name": "d", "type": "texture", "texture": "drops" }] }]
        """

    @Test func mistyGlassRunsTheRaindropSimulationAndBlursItsPicture() throws {
        let preset = try PresetLibrary(searchPaths: [PresetTests.repositoryPresets]).load("misty-glass")
        guard case .raindrops(let config) = try #require(preset.simulation).kind else {
            Issue.record("misty-glass's simulation is not raindrops")
            return
        }
        #expect(config.seed == 15)
        #expect(preset.textures.filter(\.simulated).map(\.name) == ["mist", "drops", "glass"])
        let glass = try #require(preset.effects.last)
        #expect(glass.readsSimulation && glass.blur == LayerBlur(radius: 12, downsample: 4, passes: 2))
        // The picture is baked once; the glass is drawn every frame.
        let passes = PassPlanner.plan(preset)
        #expect(passes.map(\.isStatic) == [true, false])
        #expect(DependencyAnalysis.dependencies(of: glass, readFile: DependencyAnalysis.readFromDisk).contains(.time))
    }

    @Test func theSettingsAreReadAndChecked() throws {
        let dir = try preset(
            #"{"simulation": {"kind": "raindrops", "seed": 9, "regrowPerSecond": 0.5, "maxDrops": 10}, "#
                + Self.glass + "}")
        let loaded = try Preset.load(directory: dir)
        guard case .raindrops(let c) = try #require(loaded.simulation).kind else {
            Issue.record("the preset's simulation is not raindrops")
            return
        }
        #expect(c.seed == 9 && c.regrowPerSecond == 0.5 && c.maxDrops == 10 && c.minRadius == 1.5)
        #expect(loaded.effects[0].blur == LayerBlur(radius: 8))
        let shader = try ShaderGenerator.generate(pass: try #require(PassPlanner.plan(loaded).last), preset: loaded)
        #expect(
            shader.fragmentSource.contains("glass(p, Layer(iResolution.xy), tilt_texture_mist, tilt_texture_drops)"))
        #expect(shader.fragmentSource.contains("vec4 sampleLayerBlurred(Layer layer, vec2 position)"))
    }

    @Test(arguments: [
        (#""simulation": {"kind": "snow"}"#, "simulation.kind: 'snow' is not one of raindrops"),
        (#""simulation": {"kind": "raindrops", "sead": 1}"#, "simulation: unknown key 'sead'"),
        (#""simulation": {"kind": "raindrops", "seed": 1.5}"#, "simulation.seed: 1.5 is out of range"),
        (#""simulation": {"kind": "raindrops", "minRadius": 5, "maxRadius": 2}"#, "give maxRadius ≥ minRadius"),
        (#""simulation": {"kind": "raindrops"}, "textures": {"mist": {}}"#, "textures.mist: 'mist' is a texture of"),
        (
            #""effects": [{"kind": "color", "function": "f", "file": "a.glsl", "blur": {"radius": 3}}]"#,
            "effects[0].blur: only layer effects can blur"
        ),
        (
            #""effects": [{"kind": "layer", "function": "f", "file": "a.glsl", "blur": {"radius": 3, "passes": 9}}]"#,
            "effects[0].blur.passes: 9.0 is not a whole number from 1 to 4"
        ),
        (
            #""effects": [{"kind": "layer", "function": "f", "file": "a.glsl", "blur": {"radius": 3, "sigma": 2}}]"#,
            "effects[0].blur: unknown key 'sigma'"
        ),
    ])
    func badSimulationsAndBlursSayWhatIsWrong(json: String, expected: String) throws {
        let body = json.contains("\"effects\"") ? json : json + ", " + Self.glass
        let dir = try preset("{" + body + "}")
        let error = try #require(throws: PresetError.self) { try Preset.load(directory: dir) }
        #expect(error.kind == .invalid)
        #expect("\(error)".contains(expected), "\(error)")
    }

    @Test func theBlurKernelIsNormalisedAndSpreadsWithTheRadius() {
        for blur in [LayerBlur(radius: 12), LayerBlur(radius: 3, downsample: 1, passes: 1), LayerBlur(radius: 40)] {
            let k = blur.kernel()
            let sum = k.centre + 2 * k.taps.reduce(0) { $0 + $1.weight }
            #expect(abs(sum - 1) < 1e-9)
            #expect(k.taps.count <= LayerBlur.maxTaps)
        }
        #expect(LayerBlur(radius: 40).kernel().taps.count > LayerBlur(radius: 12).kernel().taps.count)
        #expect(LayerBlur(radius: 0.01).kernel().taps.isEmpty)
    }
}
