import FoundationEssentials

extension PresetFile {
    /// The `shadertoy` key: a `mainImage` file, or an object describing a whole Shadertoy program.
    enum ShadertoyEntry: Decodable {
        case file(String)
        case program(ProgramEntry)

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let file = try? c.decode(String.self) {
                self = .file(file)
            } else {
                self = .program(try c.decode(ProgramEntry.self))
            }
        }
    }

    /// `{"image": "main.glsl", "common": "common.glsl", "buffers": {"A": {…}}, "cube": {…}, "channels": [...]}`.
    struct ProgramEntry: Decodable {
        var image: String
        var common: String?
        var buffers: [String: BufferEntry]?
        /// The Cube A pass: `{"file": "cube.glsl", "channels": [...]}`, its code defining `mainCubemap`.
        var cube: BufferEntry?
        var channels: [ChannelEntry]?

        /// The keys the object may hold.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case image, common, buffers, cube, channels
        }
    }

    /// One buffer: `{"file": "a.glsl", "channels": [...]}`.
    struct BufferEntry: Decodable {
        var file: String
        var channels: [ChannelEntry]?

        /// The keys a buffer may hold.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case file, channels
        }
    }

    /// One channel, with optional sampler settings; `channel` is its number (default: its place in the list). Its
    /// source is one of `{"buffer": "A"}` (or `"Cube A"`), `{"texture": "noise.png"}`, `{"cubemap": [six files: +X,
    /// −X, +Y, −Y, +Z, −Z]}`, `{"video": "clip.webm"}`, `{"music": "song.ogg"}`, or `true` for one of `keyboard`,
    /// `webcam`, `microphone`.
    struct ChannelEntry: Decodable {
        var channel: Int?
        var buffer: String?
        var texture: String?
        var cubemap: [String]?
        var video: String?
        var music: String?
        var filter: String?
        var wrap: String?
        var vflip: Bool?
        /// `true`: the keyboard (``ShadertoyKeyboard``).
        var keyboard: Bool?
        /// `true`: the camera (`--camera`, `--source`), or a test pattern.
        var webcam: Bool?
        /// `true`: the default capture device's sound.
        var microphone: Bool?

        /// The keys a channel may hold.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case channel, buffer, texture, cubemap, video, music, filter, wrap, vflip, keyboard, webcam, microphone
        }
    }

    /// The Image file and, for the object form, the whole program, with paths made absolute.
    /// - Parameter path: makes a file name absolute, checking it exists (the field names it in errors).
    func resolveShadertoy(
        file: String, path: (String, String) throws(PresetError) -> String
    ) throws(PresetError) -> (image: String, program: ShadertoyProgram?)? {
        switch shadertoy {
        case nil: return nil
        case .file(let name): return (try path(name, "shadertoy"), nil)
        case .program(let entry):
            let image = try path(entry.image, "shadertoy.image")
            let common = try entry.common.map { (c: String) throws(PresetError) in
                ShadertoyCode(name: try path(c, "shadertoy.common"))
            }
            var buffers: [ShadertoyPass] = []
            for (key, value) in (entry.buffers ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard key.count == 1, let buffer = ShadertoyBuffer(name: key) else {
                    throw .invalid(file, field: "shadertoy.buffers.\(key)", reason: "buffers are named A, B, C or D")
                }
                let field = "shadertoy.buffers.\(key)"
                buffers.append(
                    ShadertoyPass(
                        name: buffer.passName, buffer: buffer, code: ShadertoyCode(name: try path(value.file, field)),
                        channels: try channels(value.channels, field: field, file: file, path: path)))
            }
            let imagePass = ShadertoyPass(
                name: "Image", code: ShadertoyCode(name: image),
                channels: try channels(entry.channels, field: "shadertoy", file: file, path: path))
            let cube = try entry.cube.map { (value: BufferEntry) throws(PresetError) in
                ShadertoyPass(
                    name: "Cube A", code: ShadertoyCode(name: try path(value.file, "shadertoy.cube")),
                    channels: try channels(value.channels, field: "shadertoy.cube", file: file, path: path))
            }
            let program = ShadertoyProgram(common: common, buffers: buffers, cube: cube, image: imagePass)
            let defined = Set(buffers.compactMap(\.buffer))
            for pass in program.passes {
                let field =
                    pass.buffer.map { "shadertoy.buffers.\($0.letter)" }
                    ?? (pass.name == "Cube A" ? "shadertoy.cube" : "shadertoy")
                for channel in pass.channels {
                    if case .buffer(let read) = channel.source, !defined.contains(read) {
                        throw .invalid(
                            file, field: "\(field).channels",
                            reason:
                                "iChannel\(channel.index) reads Buffer \(read.letter), which \"buffers\" does not define"
                        )
                    }
                    if channel.source == .cubeBuffer, cube == nil {
                        throw .invalid(
                            file, field: "\(field).channels",
                            reason: "iChannel\(channel.index) reads Cube A, which \"cube\" does not define")
                    }
                }
            }
            return (image, program)
        }
    }

    private func channels(
        _ entries: [ChannelEntry]?, field: String, file: String, path: (String, String) throws(PresetError) -> String
    ) throws(PresetError) -> [ShadertoyChannel] {
        var result: [ShadertoyChannel] = []
        for (i, entry) in (entries ?? []).enumerated() {
            let place = "\(field).channels[\(i)]"
            let index = entry.channel ?? i
            guard (0...3).contains(index), !result.contains(where: { $0.index == index }) else {
                throw .invalid(file, field: place, reason: "channel \(index) is not a free channel number 0–3")
            }
            var sources: [ShadertoyChannel.Source] = []
            if let name = entry.buffer {
                if ["cube a", "cube"].contains(name.lowercased()) {
                    sources.append(.cubeBuffer)
                } else if let buffer = ShadertoyBuffer(name: name) {
                    sources.append(.buffer(buffer))
                } else {
                    throw .invalid(
                        file, field: "\(place).buffer", reason: "'\(name)' is not one of A, B, C, D, Cube A")
                }
            }
            if let texture = entry.texture { sources.append(.texture(path: try path(texture, "\(place).texture"))) }
            if let faces = entry.cubemap {
                guard faces.count == 6 else {
                    throw .invalid(
                        file, field: "\(place).cubemap",
                        reason: "give six files, in the order +X, −X, +Y, −Y, +Z, −Z (\(faces.count) given)")
                }
                var resolved: [String] = []
                for (n, face) in faces.enumerated() { resolved.append(try path(face, "\(place).cubemap[\(n)]")) }
                sources.append(.cubemap(faces: resolved))
            }
            if let video = entry.video { sources.append(.video(path: try path(video, "\(place).video"))) }
            if let music = entry.music { sources.append(.music(path: try path(music, "\(place).music"))) }
            if entry.keyboard == true { sources.append(.keyboard) }
            if entry.webcam == true { sources.append(.webcam) }
            if entry.microphone == true { sources.append(.microphone) }
            guard sources.count == 1, let source = sources.first else {
                throw .invalid(
                    file, field: place,
                    reason: "give exactly one of \"buffer\", \"texture\", \"cubemap\", \"video\", \"music\", or "
                        + "\"keyboard\", \"webcam\", \"microphone\": true")
            }
            do {
                let settings = try ShadertoyChannel.Settings(filter: entry.filter, wrap: entry.wrap, vflip: entry.vflip)
                result.append(ShadertoyChannel(index: index, source: source, settings: settings))
            } catch { throw .invalid(file, field: place, reason: error.reason) }
        }
        return result
    }
}
