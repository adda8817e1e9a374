import FoundationEssentials

/// Finds what each effect and Shadertoy base of a preset reads per frame (``FrameDependencies``).
///
/// An effect depends on its argument bindings (`size` and constants are static) and on the built-in uniforms its GLSL
/// file names anywhere outside comments: the whole file counts, so an effect shares the dependencies of every function
/// in its file. A stateful effect reads its previous frame. A file that cannot be read counts as depending on
/// everything, so nothing is baked from it (the shader generator reports the unreadable file).
package enum DependencyAnalysis {
    /// Reads a shader file's text.
    package typealias FileReader = (String) throws -> String

    /// Reads a file as UTF-8 text.
    package static func readFromDisk(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The dependencies of one effect.
    package static func dependencies(of effect: Effect, readFile: FileReader) -> FrameDependencies {
        var result = uniforms(inFile: effect.file, readFile: readFile)
        for argument in effect.arguments { result.formUnion(argument.binding.dependencies) }
        if effect.stateful { result.insert(.previousFrame) }
        // A simulation steps with time, motion and the pointer.
        if effect.readsSimulation { result.formUnion([.time, .motion, .pointer]) }
        return result
    }

    /// The dependencies of a Shadertoy base: the uniforms its file names.
    package static func dependencies(ofShadertoy file: String, readFile: FileReader) -> FrameDependencies {
        uniforms(inFile: file, readFile: readFile)
    }

    /// The dependencies of a preset's Shadertoy base: with a Shadertoy program, its Common and Image code (inline
    /// code of a JSON export included); a program with buffers or Cube A draws them every frame, and one with a video,
    /// camera or sound channel changes by itself, so either depends on everything.
    package static func dependencies(ofShadertoyIn preset: Preset, readFile: FileReader = readFromDisk)
        -> FrameDependencies
    {
        guard let program = preset.shadertoyProgram else {
            return preset.shadertoy.map { dependencies(ofShadertoy: $0, readFile: readFile) } ?? []
        }
        guard !program.drawsEveryFrame else { return .all }
        var result = dependencies(ofCubeIn: preset, readFile: readFile)
        for code in [program.common, program.image.code].compactMap({ $0 }) {
            result.formUnion(code.text.map(uniforms(inGLSL:)) ?? uniforms(inFile: code.name, readFile: readFile))
        }
        return result
    }

    /// What the Cube A pass of a preset's Shadertoy program reads per frame: its code's and the Common code's uniforms,
    /// its own previous frame when it reads itself, and everything when it reads a buffer, the keyboard or a live
    /// channel. Empty without Cube A. A static Cube A is drawn once (its six faces cost 6 Mpixels a frame).
    package static func dependencies(ofCubeIn preset: Preset, readFile: FileReader = readFromDisk) -> FrameDependencies
    {
        guard let program = preset.shadertoyProgram, let cube = program.cube else { return [] }
        var result: FrameDependencies = []
        for channel in cube.channels {
            switch channel.source {
            case .buffer, .keyboard, .video, .webcam, .music, .microphone: return .all
            case .cubeBuffer: result.insert(.previousFrame)
            case .texture, .cubemap: break
            }
        }
        for code in [program.common, cube.code].compactMap({ $0 }) {
            result.formUnion(code.text.map(uniforms(inGLSL:)) ?? uniforms(inFile: code.name, readFile: readFile))
        }
        return result
    }

    /// What the whole preset reads per frame: the union over its Shadertoy base and effects.
    package static func dependencies(of preset: Preset, readFile: FileReader = readFromDisk) -> FrameDependencies {
        var result = dependencies(ofShadertoyIn: preset, readFile: readFile)
        for effect in preset.effects { result.formUnion(dependencies(of: effect, readFile: readFile)) }
        if preset.simulation != nil { result.formUnion([.time, .motion, .pointer]) }
        return result
    }

    static func uniforms(inFile file: String, readFile: FileReader) -> FrameDependencies {
        guard let text = try? readFile(file) else { return .all }
        return uniforms(inGLSL: text)
    }

    /// The built-in uniforms named in GLSL `text`, outside `//` and `/* */` comments, as whole identifiers.
    static func uniforms(inGLSL text: String) -> FrameDependencies {
        var result: FrameDependencies = []
        for word in identifiers(in: text) {
            if let found = FrameDependencies.builtinNames[word] { result.formUnion(found) }
        }
        return result
    }

    private static func identifiers(in text: String) -> Set<String> {
        var words: Set<String> = []
        var word = ""
        let chars = Array(text.unicodeScalars)
        var i = 0
        func isIdentifier(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic || ("0"..."9") ~= c }
        func flush() {
            if !word.isEmpty { words.insert(word) }
            word = ""
        }
        while i < chars.count {
            let c = chars[i]
            let next: Unicode.Scalar? = i + 1 < chars.count ? chars[i + 1] : nil
            if c == "/", next == "/" {
                flush()
                while i < chars.count, chars[i] != "\n" { i += 1 }
            } else if c == "/", next == "*" {
                flush()
                i += 2
                while i < chars.count, !(chars[i] == "*" && i + 1 < chars.count && chars[i + 1] == "/") { i += 1 }
                i += 2
            } else {
                if isIdentifier(c) { word.unicodeScalars.append(c) } else { flush() }
                i += 1
            }
        }
        flush()
        return words
    }
}
