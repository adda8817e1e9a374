import Foundation
import Testing
import TiltEffects
import TiltTestKit

@testable import TiltServe

/// The program description hands the browser preview tiltfx's own table of built-in uniforms.
@Suite struct ProgramDescriptionTests {
    /// The description of the bundled `foil` preset, as `/edit` writes it.
    private static func foilJSON() throws -> [String: Any] {
        let directory = TestPaths.repositoryRoot.appendingPathComponent("Presets/foil").path
        let preset = try Preset.load(directory: directory)
        let passes = PassPlanner.plan(preset)
        let shaders = try passes.map { try ShaderGenerator.generate(pass: $0, preset: preset) }
        let description = ProgramDescription(preset: preset, name: "foil", passes: passes, shaders: shaders)
        let object = try JSONSerialization.jsonObject(with: Data(ServeJSON.string(description).utf8))
        return try #require(object as? [String: Any])
    }

    @Test func builtinsAreTheTableInOrderWithTypeAndSource() throws {
        let json = try Self.foilJSON()
        let builtins = try #require(json["builtins"] as? [[String: String]])
        #expect(builtins.map { $0["name"] } == BuiltinUniform.all.map(\.name))
        #expect(builtins.map { $0["type"] } == BuiltinUniform.all.map(\.type.rawValue))
        #expect(builtins.map { $0["source"] } == BuiltinUniform.all.map(\.source.rawValue))
        #expect(builtins.allSatisfy { Set($0.keys) == ["name", "type", "source"] })
    }

    @Test func uniformsNameEveryBuiltinWithItsType() throws {
        let json = try Self.foilJSON()
        let uniforms = try #require(json["uniforms"] as? [String: String])
        for builtin in BuiltinUniform.all {
            #expect(uniforms[builtin.name] == builtin.type.rawValue, "\(builtin.name)")
        }
        // And the renderer's own, which are no frame input.
        #expect(uniforms["tilt_targetSize"] == "vec2")
        #expect(uniforms["tilt_layerTexture"] == "sampler2D")
    }
}
