/// The three shader kinds, mirroring SwiftUI's `colorEffect`, `distortionEffect` and `layerEffect`.
///
/// - `color`: `vec4 name(vec2 position, vec4 color, …args)`; premultiplied colour in, colour out.
/// - `distortion`: `vec2 name(vec2 position, …args)`; returns where to sample instead.
/// - `layer`: `vec4 name(vec2 position, Layer layer, …args)`; may sample the whole layer below with `sampleLayer`,
///   so it starts a new render pass.
package enum EffectKind: String, Sendable, Hashable, CaseIterable, Codable {
    case color
    case distortion
    case layer

    /// Whether an effect of this kind ends the previous pass and reads its output as a texture.
    package var isPassBoundary: Bool { self == .layer }
}
