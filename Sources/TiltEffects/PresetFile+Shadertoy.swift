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

    /// `{"image": "main.glsl", "common": "common.glsl", "buffers": {"A": {…}}, "channels": [...]}`.
    struct ProgramEntry: Decodable {
        var image: String
        var common: String?
        var buffers: [String: BufferEntry]?
        var channels: [ChannelEntry]?

        /// The keys the object may hold.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case image, common, buffers, channels
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

    /// One channel: `{"buffer": "A"}`, `{"texture": "noise.png"}` or `{"keyboard": true}`, with optional sampler settings; `channel` is
    /// its number (default: its place in the list).
    struct ChannelEntry: Decodable {
        var channel: Int?
        var buffer: String?
        var texture: String?
        var filter: String?
        var wrap: String?
        var vflip: Bool?
        /// `true`: the keyboard (``ShadertoyKeyboard``).
        var keyboard: Bool?

        /// The keys a channel may hold.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case channel, buffer, texture, filter, wrap, vflip, keyboard
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
            let program = ShadertoyProgram(common: common, buffers: buffers, image: imagePass)
            let defined = Set(buffers.compactMap(\.buffer))
            for pass in [imagePass] + buffers {
                for channel in pass.channels {
                    guard case .buffer(let read) = channel.source, !defined.contains(read) else { continue }
                    let field = pass.buffer.map { "shadertoy.buffers.\($0.letter)" } ?? "shadertoy"
                    throw .invalid(
                        file, field: "\(field).channels",
                        reason:
                            "iChannel\(channel.index) reads Buffer \(read.letter), which \"buffers\" does not define")
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
            let source: ShadertoyChannel.Source
            switch (entry.buffer, entry.texture, entry.keyboard == true) {
            case (let name?, nil, false):
                guard let buffer = ShadertoyBuffer(name: name) else {
                    throw .invalid(file, field: "\(place).buffer", reason: "'\(name)' is not one of A, B, C, D")
                }
                source = .buffer(buffer)
            case (nil, let texture?, false):
                source = .texture(path: try path(texture, "\(place).texture"))
            case (nil, nil, true):
                source = .keyboard
            default:
                throw .invalid(
                    file, field: place,
                    reason: "give exactly one of \"buffer\", \"texture\" or \"keyboard\": true")
            }
            do {
                let settings = try ShadertoyChannel.Settings(filter: entry.filter, wrap: entry.wrap, vflip: entry.vflip)
                result.append(ShadertoyChannel(index: index, source: source, settings: settings))
            } catch { throw .invalid(file, field: place, reason: error.reason) }
        }
        return result
    }
}
