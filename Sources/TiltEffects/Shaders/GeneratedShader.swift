/// The GLSL for one render pass, with the map that turns compiler messages back into file:line.
///
/// Only ``ShaderGenerator`` makes one (with the memberwise initialiser), so it has no public initialiser.
public struct GeneratedShader: Sendable, Hashable {
    /// The vertex shader (a full-screen triangle).
    public var vertexSource: String
    /// The fragment shader.
    public var fragmentSource: String
    /// Source-string numbers to files.
    public var sourceMap: ShaderSourceMap
}
