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
        if let log = failureLog(
            program, status: GLenum(GL_LINK_STATUS), query: glGetProgramiv, getLog: glGetProgramInfoLog,
            delete: glDeleteProgram)
        {
            guard rewritesLinkLog else { throw .compile(stage: "link", log: log) }
            throw .compile(stage: "link", diagnostics: fragmentMap.diagnostics(fromLog: log))
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
        if let log = failureLog(
            shader, status: GLenum(GL_COMPILE_STATUS), query: glGetShaderiv, getLog: glGetShaderInfoLog,
            delete: glDeleteShader)
        {
            throw .compile(stage: "compile", diagnostics: map.diagnostics(fromLog: log))
        }
        return shader
    }

    /// When `status` (a compile or link status) of `object` says it failed: deletes it and returns its info log.
    /// - Returns: the log of a failure, `nil` on success.
    private static func failureLog(
        _ object: GLuint, status: GLenum, query: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
        getLog: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) -> Void,
        delete: (GLuint) -> Void
    ) -> String? {
        var ok: GLint = 0
        query(object, status, &ok)
        guard ok == 0 else { return nil }
        defer { delete(object) }
        var length: GLint = 0
        query(object, GLenum(GL_INFO_LOG_LENGTH), &length)
        guard length > 0 else { return "(no log)" }
        var buffer = [GLchar](repeating: 0, count: Int(length) + 1)
        getLog(object, GLsizei(length), nil, &buffer)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
