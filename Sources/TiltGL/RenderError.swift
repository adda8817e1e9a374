import TiltCore
import TiltEffects

/// A rendering failure, with a message that says what went wrong and what to do.
package struct RenderError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Sendable, Hashable {
        case noGL(String)
        case compile(stage: String, log: String, diagnostics: [ShaderSourceMap.Diagnostic])
        case write(path: String, reason: String)
        case output(OutputFileError)
        case read(path: String, reason: String)
        case window(String)
        case argument(String)
        case framebuffer(width: Int, height: Int, status: Int)
    }

    private let kind: Kind

    /// No OpenGL context could be made (EGL or SDL failure).
    package static func noGL(_ detail: String) -> RenderError { RenderError(kind: .noGL(detail)) }
    /// A shader failed to compile or link; `log` already names files and lines.
    package static func compile(stage: String, log: String) -> RenderError {
        RenderError(kind: .compile(stage: stage, log: log, diagnostics: []))
    }
    /// A shader failed to compile or link: its messages, located in the preset's files.
    static func compile(stage: String, diagnostics: [ShaderSourceMap.Diagnostic]) -> RenderError {
        let log = diagnostics.map(\.description).joined(separator: "\n")
        return RenderError(kind: .compile(stage: stage, log: log, diagnostics: diagnostics))
    }
    /// An output file could not be written.
    package static func write(_ path: String, reason: String) -> RenderError {
        RenderError(kind: .write(path: path, reason: reason))
    }
    /// An output file or folder was refused or could not be written; ``OutputFileError`` says which and why.
    package static func output(_ error: OutputFileError) -> RenderError { RenderError(kind: .output(error)) }
    /// What was wrong with the output, when it was refused or could not be written (``output(_:)``).
    package var output: OutputFileError? {
        if case .output(let error) = kind { return error }
        return nil
    }
    /// An input file (image, log) could not be read.
    package static func read(_ path: String, reason: String) -> RenderError {
        RenderError(kind: .read(path: path, reason: reason))
    }
    /// The window could not be opened or driven.
    package static func window(_ detail: String) -> RenderError { RenderError(kind: .window(detail)) }
    /// The GL made no complete framebuffer of this size (a context exists, so Mesa is not what is missing).
    package static func framebuffer(width: Int, height: Int, status: Int) -> RenderError {
        RenderError(kind: .framebuffer(width: width, height: height, status: status))
    }
    /// A bad request (size, frame count).
    package static func argument(_ detail: String) -> RenderError { RenderError(kind: .argument(detail)) }

    /// Whether this is a shader compile or link error.
    package var isCompileError: Bool {
        if case .compile = kind { return true }
        return false
    }

    /// A compile or link error's messages, each with its file and line (empty for other errors, and for the
    /// renderer's own shaders).
    package var diagnostics: [ShaderSourceMap.Diagnostic] {
        if case .compile(_, _, let diagnostics) = kind { return diagnostics }
        return []
    }

    package var description: String {
        switch kind {
        case .noGL(let d):
            return "cannot create an OpenGL ES 3 context: \(d). Install Mesa (scripts/bootstrap: libegl-mesa0 "
                + "libgl1-mesa-dri) and, without a GPU, set LIBGL_ALWAYS_SOFTWARE=1."
        case .compile(let stage, let log, _): return "shader \(stage) failed:\n\(log)"
        case .write(let path, let reason): return "cannot write \(path): \(reason)"
        case .output(let error): return error.description
        case .read(let path, let reason): return "cannot read \(path): \(reason)"
        case .window(let d): return "cannot open a window: \(d). Without a display, use `tiltfx render` (headless)."
        case .argument(let d): return d
        case .framebuffer(let width, let height, let status):
            return "the GL could not make a \(width)x\(height) framebuffer (status 0x\(String(status, radix: 16))); "
                + "give a smaller --size"
        }
    }
}
