import CEGL
import TiltEffects

/// A linked GL program for one render pass, with its uniform locations.
final class ShaderProgram {
    let id: GLuint
    private var locations: [String: GLint] = [:]

    /// Compiles and links `shader`.
    /// - Throws: `RenderError.compile` with the log rewritten to name the preset's files and lines.
    init(_ shader: GeneratedShader) throws(RenderError) {
        id = try Self.build(
            vertex: shader.vertexSource, vertexMap: ShaderSourceMap(files: ["<vertex>"]),
            fragment: shader.fragmentSource, fragmentMap: shader.sourceMap)
    }

    deinit { glDeleteProgram(id) }

    /// Compiles and links a program from plain sources (for the renderer's own shaders), returning its id.
    static func link(vertex: String, fragment: String) throws(RenderError) -> GLuint {
        let map = ShaderSourceMap(files: ["<built-in>"])
        return try build(vertex: vertex, vertexMap: map, fragment: fragment, fragmentMap: map, rewritesLinkLog: false)
    }

    /// Compiles both stages and links them; compile logs name files and lines through the maps, and so does the link
    /// log when `rewritesLinkLog` (it refers to the fragment shader's sources).
    private static func build(
        vertex: String, vertexMap: ShaderSourceMap, fragment: String, fragmentMap: ShaderSourceMap,
        rewritesLinkLog: Bool = true
    ) throws(RenderError) -> GLuint {
        let vs = try compile(GLenum(GL_VERTEX_SHADER), vertex, map: vertexMap)
        defer { glDeleteShader(vs) }
        let fs = try compile(GLenum(GL_FRAGMENT_SHADER), fragment, map: fragmentMap)
        defer { glDeleteShader(fs) }
        let program = glCreateProgram()
        glAttachShader(program, vs)
        glAttachShader(program, fs)
        glLinkProgram(program)
        var ok: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &ok)
        if ok == 0 {
            let log = Self.log(program, getLength: glGetProgramiv, getLog: glGetProgramInfoLog)
            glDeleteProgram(program)
            throw .compile(stage: "link", log: rewritesLinkLog ? fragmentMap.rewrite(log: log) : log)
        }
        return program
    }

    /// The location of `name`, cached; -1 when the shader does not use it.
    func location(_ name: String) -> GLint {
        if let l = locations[name] { return l }
        let l = glGetUniformLocation(id, name)
        locations[name] = l
        return l
    }

    private static func compile(_ type: GLenum, _ source: String, map: ShaderSourceMap) throws(RenderError) -> GLuint {
        let shader = glCreateShader(type)
        source.withCString { p in
            var ptr: UnsafePointer<GLchar>? = p
            glShaderSource(shader, 1, &ptr, nil)
        }
        glCompileShader(shader)
        var ok: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &ok)
        if ok == 0 {
            let log = Self.log(shader, getLength: glGetShaderiv, getLog: glGetShaderInfoLog)
            glDeleteShader(shader)
            throw .compile(stage: "compile", log: map.rewrite(log: log))
        }
        return shader
    }

    private static func log(
        _ object: GLuint, getLength: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
        getLog: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) -> Void
    ) -> String {
        var length: GLint = 0
        getLength(object, GLenum(GL_INFO_LOG_LENGTH), &length)
        guard length > 0 else { return "(no log)" }
        var buffer = [GLchar](repeating: 0, count: Int(length) + 1)
        getLog(object, GLsizei(length), nil, &buffer)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
