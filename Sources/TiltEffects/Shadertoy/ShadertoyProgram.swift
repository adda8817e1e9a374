/// A Shadertoy program: optional Common code, Buffers A–D, the Cube A pass and the Image pass, each pass reading up to
/// four channels.
///
/// Native presets describe one with the object form of their `shadertoy` key; a Shadertoy JSON export
/// (``ShadertoyExport``) becomes one too. The Image pass draws the base content that the preset's effects then shade;
/// the buffers render before it, each into its own pair of ping-pong textures, in the order A, B, C, D, then Cube A
/// into the six faces of a cube map.
package struct ShadertoyProgram: Sendable, Hashable {
    /// Code shared by every pass, included before each pass's own code.
    package var common: ShadertoyCode?
    /// The buffer passes, in the order they render (A, B, C, D; absent buffers are left out).
    package var buffers: [ShadertoyPass]
    /// The Cube A pass, whose `mainCubemap` draws the six faces of a cube map after the buffers; `nil`: none.
    package var cube: ShadertoyPass?
    /// The Image pass, whose `mainImage` draws the base content.
    package var image: ShadertoyPass

    /// Creates a program; `buffers` are sorted into Shadertoy's order.
    package init(
        common: ShadertoyCode? = nil, buffers: [ShadertoyPass] = [], cube: ShadertoyPass? = nil, image: ShadertoyPass
    ) {
        self.common = common
        self.buffers = buffers.sorted { ($0.buffer?.rawValue ?? 0) < ($1.buffer?.rawValue ?? 0) }
        self.cube = cube
        self.image = image
    }

    /// Every pass in the order they render: the buffers, Cube A, the Image.
    package var passes: [ShadertoyPass] {
        buffers + [cube].compactMap { $0 } + [image]
    }

    /// The code of every pass (Common first), for looking up inline code by name.
    package var codes: [ShadertoyCode] {
        [common].compactMap { $0 } + passes.map(\.code)
    }

    /// The pass whose code is named `name`.
    package func pass(named name: String) -> ShadertoyPass? {
        passes.first { $0.code.name == name }
    }

    /// Whether the program draws every frame whatever its code reads: it has buffers (they keep state and count
    /// frames), or a channel plays by itself (a video, the camera, sound). Cube A alone does not: it depends on what
    /// its code reads (``DependencyAnalysis/dependencies(ofCubeIn:readFile:)``).
    package var drawsEveryFrame: Bool {
        !buffers.isEmpty || passes.contains { $0.channels.contains { $0.source.isLive } }
    }

    /// The channels of every pass.
    package var channels: [ShadertoyChannel] {
        passes.flatMap(\.channels)
    }

    /// The text of the inline code named `name` (a JSON export's pass), or `nil` for a file or an unknown name.
    package func inlineText(named name: String) -> String? {
        codes.first { $0.name == name }?.text
    }

    /// What each pass's channels read, for `tiltfx check`: `Buffer A: iChannel0 Buffer A, iChannel1 keyboard;
    /// Image: iChannel0 texture /path/abc.png`; `nil` when no pass has a channel.
    package var inputSummary: String? {
        let passes = self.passes.filter { !$0.channels.isEmpty }.map { pass in
            pass.name + ": "
                + pass.channels.map { "iChannel\($0.index) \($0.source.summary)" }.joined(separator: ", ")
        }
        return passes.isEmpty ? nil : passes.joined(separator: "; ")
    }

    /// The files the program reads (its source files, textures, cube faces, videos and music), for watching.
    package var files: [String] {
        var files = codes.filter { $0.text == nil }.map(\.name)
        for channel in channels {
            switch channel.source {
            case .texture(let path), .video(let path), .music(let path?): files.append(path)
            case .cubemap(let faces): files += faces
            case .buffer, .keyboard, .cubeBuffer, .webcam, .music(nil), .microphone: break
            }
        }
        return files
    }
}

/// One of Shadertoy's four buffers.
package enum ShadertoyBuffer: Int, Sendable, Hashable, CaseIterable, Comparable {
    case a, b, c, d

    /// `A` to `D`.
    package var letter: String { ["A", "B", "C", "D"][rawValue] }

    /// `Buffer A` to `Buffer D`, as Shadertoy names the pass.
    package var passName: String { "Buffer \(letter)" }

    /// The buffer named by a letter (`A`, `b`) or a pass name (`Buffer A`, `Buf A`).
    package init?(name: String) {
        let words = name.split(separator: " ")
        guard let last = words.last, words.count <= 2,
            words.count == 1 || ["buffer", "buf"].contains(words[0].lowercased()),
            let found = Self.allCases.first(where: { $0.letter == last.uppercased() })
        else { return nil }
        self = found
    }

    package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// A pass's GLSL: a file of a native preset, or a JSON export's inline code.
package struct ShadertoyCode: Sendable, Hashable {
    /// The file's absolute path, or for inline code its name in messages (`/path/shader.json#Buffer A`).
    package var name: String
    /// The inline code; `nil` when ``name`` is a file to read.
    package var text: String?

    /// Code read from the file `path`, or given inline under a name.
    package init(name: String, text: String? = nil) {
        self.name = name
        self.text = text
    }
}

/// One pass of a Shadertoy program: a buffer or the Image.
package struct ShadertoyPass: Sendable, Hashable {
    /// `Image`, `Buffer A` …, `Cube A`, for messages.
    package var name: String
    /// The buffer the pass renders into; `nil` for the Image and Cube A passes.
    package var buffer: ShadertoyBuffer?
    /// Its code (defining `mainImage`; Cube A's defines `mainCubemap`).
    package var code: ShadertoyCode
    /// The channels it reads, at most one per index 0–3.
    package var channels: [ShadertoyChannel]

    /// Creates a pass.
    package init(name: String, buffer: ShadertoyBuffer? = nil, code: ShadertoyCode, channels: [ShadertoyChannel] = []) {
        self.name = name
        self.buffer = buffer
        self.code = code
        self.channels = channels
    }
}
