import CEGL

/// Strings describing the current GL context.
enum GLInfo {
    /// `GL_RENDERER`.
    static var renderer: String { string(GLenum(GL_RENDERER)) }
    /// `GL_VERSION`.
    static var version: String { string(GLenum(GL_VERSION)) }

    private static func string(_ name: GLenum) -> String {
        guard let p = glGetString(name) else { return "unknown" }
        return String(cString: UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self))
    }
}
