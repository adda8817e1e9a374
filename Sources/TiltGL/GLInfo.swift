import CEGL

/// Strings describing the current GL context.
package enum GLInfo {
    /// `GL_RENDERER`.
    package static var renderer: String { string(GLenum(GL_RENDERER)) }
    /// `GL_VERSION`.
    package static var version: String { string(GLenum(GL_VERSION)) }

    private static func string(_ name: GLenum) -> String {
        guard let p = glGetString(name) else { return "unknown" }
        return String(cString: UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self))
    }
}
