/// The GLSL for one render pass, with the map that turns compiler messages back into file:line.
///
/// Only ``ShaderGenerator`` makes one (with the memberwise initialiser), so it has no public initialiser.
package struct GeneratedShader: Sendable, Hashable {
    /// The vertex shader (a full-screen triangle).
    package var vertexSource: String
    /// The fragment shader.
    package var fragmentSource: String
    /// Source-string numbers to files.
    package var sourceMap: ShaderSourceMap
}
