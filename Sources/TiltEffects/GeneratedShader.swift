/// The GLSL for one render pass, with the map that turns compiler messages back into file:line.
public struct GeneratedShader: Sendable, Hashable {
    /// The vertex shader (a full-screen triangle).
    public var vertexSource: String
    /// The fragment shader.
    public var fragmentSource: String
    /// Source-string numbers to files.
    public var sourceMap: ShaderSourceMap

    /// Creates a generated shader.
    public init(vertexSource: String, fragmentSource: String, sourceMap: ShaderSourceMap) {
        self.vertexSource = vertexSource
        self.fragmentSource = fragmentSource
        self.sourceMap = sourceMap
    }
}
