import FoundationEssentials
import Glibc
import TiltCore
import TiltEffects
import TiltGL

/// The result of compiling a preset with some files replaced: its program, or its errors.
struct CompileOutcome: Sendable {
    var program: ProgramDescription?
    /// Each located in a preset's file, as `/edit` sends it.
    var errors: [ShaderSourceMap.Diagnostic]
    /// Milliseconds the load, plan, generation and GL compile took.
    var milliseconds: Double
}

/// Compiles a preset exactly as tiltfx does, with some of its files replaced by a page's text.
///
/// The preset's folder is mirrored into a private temporary folder (the replaced files written there, every other
/// entry a symbolic link to the original), then loaded with `Preset.load`, planned and compiled by `EffectRenderer`
/// in the current GL context: the very code `tiltfx run` and `tiltfx check` run, so the errors are the ones they
/// would show. Paths in the messages are made relative to the preset's folder again.
enum PresetCompilation {
    typealias Diagnostic = ShaderSourceMap.Diagnostic

    /// Compiles the preset in `directory` called `name`, with `overrides` (file name → text) replacing its files.
    /// Call on the GL thread, with `context` its headless context.
    static func compile(
        name: String, directory: String, overrides: [String: String], context: Result<HeadlessContext, RenderError>
    ) -> CompileOutcome {
        let began = ContinuousClock.now
        func done(_ program: ProgramDescription?, _ errors: [Diagnostic]) -> CompileOutcome {
            let elapsed = began.duration(to: .now)
            let ms = elapsed.inSeconds * 1000
            return CompileOutcome(program: program, errors: errors, milliseconds: (ms * 100).rounded() / 100)
        }
        if case .failure(let error) = context {
            return done(nil, [Diagnostic(file: Preset.fileName, line: 0, column: 0, message: "\(error)")])
        }
        let scratch: String
        do { scratch = try mirror(directory: directory, name: name, overrides: overrides) } catch {
            return done(nil, [Diagnostic(file: Preset.fileName, line: 0, column: 0, message: "\(error)")])
        }
        defer { try? FileManager.default.removeItem(atPath: PathText.folder(of: scratch)) }
        let relative = { (path: String) -> String in
            path.hasPrefix(scratch + "/") ? String(path.dropFirst(scratch.count + 1)) : path
        }
        do {
            let preset = try Preset.load(directory: scratch)
            let renderer = try EffectRenderer(preset: preset)
            let shaders = try renderer.passes.map {
                try ShaderGenerator.generate(pass: $0, preset: preset, picture: false)
            }
            return done(ProgramDescription(preset: preset, name: name, passes: renderer.passes, shaders: shaders), [])
        } catch let error as PresetError {
            let file = error.path.map(relative) ?? Preset.fileName
            let position = error.syntaxPosition
            let message = "\(error)".replacing(scratch + "/", with: "")
            return done(
                nil,
                [
                    Diagnostic(
                        file: file, line: position?.line ?? 0, column: position?.column ?? 0, message: message)
                ])
        } catch let error as RenderError where !error.diagnostics.isEmpty {
            return done(
                nil,
                error.diagnostics.map {
                    Diagnostic(
                        file: relative($0.file), line: $0.line, column: $0.column,
                        message: $0.message.replacing(scratch + "/", with: ""))
                })
        } catch {
            let message = "\(error)".replacing(scratch + "/", with: "")
            return done(nil, [Diagnostic(file: Preset.fileName, line: 0, column: 0, message: message)])
        }
    }

    /// A private folder `TMP/tiltfx-serve-XXXXXX/NAME` mirroring `directory`, with `overrides` written in it.
    /// - Returns: the mirror's path (its parent is removed after use).
    private static func mirror(directory: String, name: String, overrides: [String: String]) throws -> String {
        let base = FileManager.default.temporaryDirectory.standardizedFileURL.path
        var template = Array("\(base)/tiltfx-serve-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ServeMessageError(.io, "cannot make a temporary folder: \(String(cString: strerror(errno)))")
        }
        let scratch = String(cString: made) + "/" + name
        let manager = FileManager.default
        try manager.createDirectory(atPath: scratch, withIntermediateDirectories: false)
        for entry in try manager.contentsOfDirectory(atPath: directory) where overrides[entry] == nil {
            try manager.createSymbolicLink(atPath: scratch + "/" + entry, withDestinationPath: directory + "/" + entry)
        }
        for (file, text) in overrides {
            try Data(text.utf8).write(to: URL(fileURLWithPath: scratch + "/" + file))
        }
        return scratch
    }
}
