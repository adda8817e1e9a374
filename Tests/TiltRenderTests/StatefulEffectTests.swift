import Foundation
import Testing
import TiltEffects
import TiltGL
import TiltRender
import TiltRenderTestKit
import TiltTestKit

/// A stateful layer effect reads its own previous frame through ping-pong textures.
@Suite(.serialized) struct StatefulEffectTests {
    /// A preset whose one stateful effect keeps a density in alpha: it starts at 0.9, and shaking (the rotation rate)
    /// wipes it; what is shown is the density as grey.
    static func fadingPreset() throws -> Preset {
        let dir = TestPaths.temporaryDirectory("tiltfx-stateful")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try """
        { "effects": [ { "kind": "layer", "function": "fade", "file": "fade.glsl", "stateful": true,
            "arguments": [ { "name": "rotationRate", "type": "vec3", "bind": "rotationRate" } ] } ] }
        """.write(to: dir.appendingPathComponent("preset.json"), atomically: true, encoding: .utf8)
        try """
        vec4 fade(vec2 position, Layer layer, vec3 rotationRate) {
            float m = iFrame == 0 ? 0.9 : samplePrevious(position).a;
            m = clamp(m - length(rotationRate) * 0.6 * iTimeDelta, 0.0, 0.95);
            return vec4(vec3(m), m);
        }
        """.write(to: dir.appendingPathComponent("fade.glsl"), atomically: true, encoding: .utf8)
        return try Preset.load(directory: dir.path)
    }

    @Test func aStatefulEffectRemembersItsPreviousFrame() throws {
        _ = GLTestEnvironment.configured
        let preset = try Self.fadingPreset()
        #expect(PassPlanner.plan(preset).contains { $0.stateful })
        let renderer = try OffscreenRenderer(preset: preset, width: 48, height: 48)
        var inputs = FrameInputs(timeDelta: 0.1, size: [48, 48])
        let first = try renderer.render(inputs)
        inputs.frame = 1
        let still = try renderer.render(inputs)
        #expect(ImageDifference(first, still).meanAbsolute < 2)
        // Shaking wipes it over a few frames; the state carries from frame to frame.
        inputs.rotationRate = [6, 0, 0]
        var last = still
        for f in 2..<8 {
            inputs.frame = f
            last = try renderer.render(inputs)
        }
        #expect(ImageDifference(first, last).meanAbsolute > 5)
        // Once shaking stops it stays (the state, not the input, decides).
        inputs.rotationRate = .zero
        inputs.frame = 8
        let after = try renderer.render(inputs)
        #expect(ImageDifference(last, after).meanAbsolute < 2)
    }
}
