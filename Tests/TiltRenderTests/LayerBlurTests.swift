import Foundation
import Testing
import TiltEffects
import TiltGL
import TiltRender
import TiltRenderTestKit
import TiltTestKit

/// A layer effect's `blur`: the layer below shrunk and blurred in separable Gaussian passes, read with
/// `sampleLayerBlurred`.
@Suite(.serialized) struct LayerBlurTests {
    /// A preset drawing a black | white edge at x = 64, then showing it through `sampleLayerBlurred` with `blur`.
    static func edgePreset(blur: String) throws -> Preset {
        let dir = TestPaths.temporaryDirectory("tiltfx-blur")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try """
        { "effects": [
            { "kind": "color", "function": "edge", "file": "edge.glsl" },
            { "kind": "layer", "function": "blurred", "file": "blurred.glsl", "blur": \(blur) } ] }
        """.write(to: dir.appendingPathComponent("preset.json"), atomically: true, encoding: .utf8)
        try """
        vec4 edge(vec2 position, vec4 color) { return position.x < 64.0 ? vec4(0.0, 0.0, 0.0, 1.0) : vec4(1.0); }
        """.write(to: dir.appendingPathComponent("edge.glsl"), atomically: true, encoding: .utf8)
        try """
        vec4 blurred(vec2 position, Layer layer) { return vec4(sampleLayerBlurred(layer, position).rgb, 1.0); }
        """.write(to: dir.appendingPathComponent("blurred.glsl"), atomically: true, encoding: .utf8)
        return try Preset.load(directory: dir.path)
    }

    /// The red channel along the middle row of a 128×32 frame.
    static func profile(blur: String) throws -> [Double] {
        _ = GLTestEnvironment.configured
        let renderer = try OffscreenRenderer(preset: try edgePreset(blur: blur), width: 128, height: 32)
        let rgba = try renderer.render(FrameInputs(size: [128, 32]))
        return (0..<128).map { Double(rgba[4 * (16 * 128 + $0)]) / 255 }
    }

    /// Where the profile first reaches `level` (linearly interpolated).
    static func crossing(_ p: [Double], _ level: Double) -> Double {
        for x in 1..<p.count where p[x] >= level {
            return Double(x - 1) + (level - p[x - 1]) / max(p[x] - p[x - 1], 1e-9) + 0.5
        }
        return Double(p.count)
    }

    @Test func anEdgeSpreadsAsAGaussianOfTheRadius() throws {
        for (radius, downsample) in [(6.0, 2), (12.0, 4)] {
            let p = try Self.profile(blur: #"{"radius": \#(radius), "downsample": \#(downsample), "passes": 2}"#)
            // A Gaussian blur of a step is its cumulative distribution: 15.9 % one σ before the edge, 84.1 % one after.
            let low = Self.crossing(p, 0.159)
            let high = Self.crossing(p, 0.841)
            #expect(abs((low + high) / 2 - 64) < 1.5, "radius \(radius): centred at \((low + high) / 2)")
            #expect(abs((high - low) / 2 - radius) < 0.2 * radius, "radius \(radius): σ measured \((high - low) / 2)")
            #expect(p[0] < 0.02 && p[127] > 0.98)
        }
    }
}
