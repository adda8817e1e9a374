import FoundationEssentials
import TiltCore

/// Reads Shadertoy's own JSON export (`{"ver", "info", "renderpass": [{"name", "type", "code", "inputs",
/// "outputs"}]}`, also inside a one-element array or a `{"Shader": …}` API answer) as a preset with no effects: its
/// Image pass draws, its buffers render before it.
///
/// Inputs name their source by `id`; a buffer input's id matches the `outputs` id of a buffer pass (older exports
/// number Buffers A–D 257–260), a Cube A input's that of the Cube A pass (or Shadertoy's `4dX3Rr`, `41`). A texture's,
/// video's or music file's `src` (`/media/a/abc.png`) is looked for by its base name beside the JSON, then in the
/// assets folder; a cube map is six files, `abc.png` and `abc_1.png` … `abc_5.png`. Music that is not found is
/// silence, with a notice.
package enum ShadertoyExport {
    /// Whether `path` names a JSON file (not a preset folder's `preset.json`), to be read as an export.
    package static func isExportPath(_ path: String) -> Bool {
        var isDirectory = false
        return path.lowercased().hasSuffix(".json") && !path.hasSuffix("/" + Preset.fileName)
            && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory
    }

    /// Loads the export at `file`.
    /// - Parameter assets: the folder searched for textures after the export's own folder.
    /// - Throws: `PresetError` naming the file and, for an input, the pass and channel.
    package static func load(file: String, assets: String? = nil) throws(PresetError) -> Preset {
        let url = URL(fileURLWithPath: file).standardizedFileURL
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .unreadable(url.path, reason: errorReason(error))
        }
        return try parse(data, file: url.path, assets: assets)
    }

    /// Parses the text of the export `file`.
    static func parse(_ data: Data, file: String, assets: String?) throws(PresetError) -> Preset {
        let json: Any
        do { json = try UntypedJSON.parse(data) } catch {
            let syntax = JSONTextPosition.syntaxError(error, in: data)
            throw .syntax(file, line: syntax.position.line, column: syntax.position.column, reason: syntax.reason)
        }
        let top = try shader(in: json, file: file)
        guard let passes = top["renderpass"] as? [Any], !passes.isEmpty else {
            throw notExport(file, "it has no \"renderpass\" list")
        }
        let directory = URL(fileURLWithPath: file).deletingLastPathComponent()
        var reader = PassReader(file: file, directory: directory.path, assets: assets)
        let program = try reader.program(passes)
        let info = top["info"] as? [String: Any] ?? [:]
        let title = info["name"] as? String ?? ""
        let author = (info["username"] as? String).map { " by \($0)" } ?? ""
        var preset = Preset(
            name: URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent,
            description: title.isEmpty ? "Shadertoy export" : "\(title)\(author) (Shadertoy export)",
            directory: directory.path, file: file, shadertoy: program.image.code.name, effects: [])
        preset.shadertoyProgram = program
        preset.assetDirectory = assets
        preset.notices = reader.notices
        return preset
    }

    /// The shader object: the top level, the first element of an array, or the `Shader` of an API answer.
    private static func shader(in json: Any, file: String) throws(PresetError) -> [String: Any] {
        if let list = json as? [Any] {
            guard let first = list.first else { throw notExport(file, "it is an empty list") }
            return try shader(in: first, file: file)
        }
        guard let object = json as? [String: Any] else {
            throw notExport(file, "it is not a JSON object with a \"renderpass\" list")
        }
        if let inner = object["Shader"], object["renderpass"] == nil { return try shader(in: inner, file: file) }
        return object
    }

    static func notExport(_ file: String, _ reason: String) -> PresetError {
        .invalid(
            file, field: "not a Shadertoy export",
            reason: "\(reason) (an export holds {\"ver\", \"info\", \"renderpass\": [{\"type\", \"code\", …}]}; "
                + "a tiltfx preset is a folder with \(Preset.fileName))")
    }
}

/// Turns the `renderpass` list of an export into a program, naming the pass and channel of each mistake.
private struct PassReader {
    let file: String
    let directory: String
    let assets: String?
    /// Output ids (as text) of the buffer passes.
    var bufferIDs: [String: ShadertoyBuffer] = [:]
    /// The buffers that have a pass.
    var defined: Set<ShadertoyBuffer> = []
    /// Output ids of the Cube A pass, and whether there is one.
    var cubeIDs: Set<String> = []
    var hasCube = false
    /// What was left out, for the preset's notices.
    var notices: [String] = []

    init(file: String, directory: String, assets: String?) {
        (self.file, self.directory, self.assets) = (file, directory, assets)
    }

    mutating func program(_ passes: [Any]) throws(PresetError) -> ShadertoyProgram {
        var objects: [(name: String, type: String, object: [String: Any])] = []
        for (i, raw) in passes.enumerated() {
            guard let object = raw as? [String: Any], let type = object["type"] as? String else {
                throw ShadertoyExport.notExport(file, "renderpass[\(i)] has no \"type\"")
            }
            objects.append((object["name"] as? String ?? type.capitalized, type.lowercased(), object))
        }
        // Buffers first, so that inputs of any pass can name them by their output ids.
        var bufferOf: [Int: ShadertoyBuffer] = [:]
        for (i, entry) in objects.enumerated() where entry.type == "buffer" {
            let outputID = (entry.object["outputs"] as? [[String: Any]])?.first?["id"].flatMap(Self.idText)
            let byNumber = outputID.flatMap(Self.numberedBuffer)
            let taken = Set(bufferOf.values)
            guard
                let buffer = byNumber ?? ShadertoyBuffer(name: entry.name)
                    ?? ShadertoyBuffer.allCases.first(where: { !taken.contains($0) })
            else { throw invalid(entry.name, "more than four buffer passes; Shadertoy has Buffers A–D") }
            guard !taken.contains(buffer) else { throw invalid(entry.name, "a second pass for \(buffer.passName)") }
            if let outputID { bufferIDs[outputID] = buffer }
            bufferOf[i] = buffer
            defined.insert(buffer)
        }
        // Cube A's output id, so that inputs can name it (besides Shadertoy's own id for it).
        for entry in objects where entry.type == "cubemap" {
            if let id = (entry.object["outputs"] as? [[String: Any]])?.first?["id"].flatMap(Self.idText) {
                cubeIDs.insert(id)
            }
            hasCube = true
        }
        var common: ShadertoyCode?
        var image: ShadertoyPass?
        var cube: ShadertoyPass?
        var bufferPasses: [ShadertoyPass] = []
        for (i, (name, type, object)) in objects.enumerated() {
            switch type {
            case "common": common = try code(of: object, pass: "Common")
            case "image":
                guard image == nil else { throw invalid(name, "a second Image pass") }
                image = try pass(object, name: "Image", buffer: nil)
            case "buffer":
                if let buffer = bufferOf[i] {
                    bufferPasses.append(try pass(object, name: buffer.passName, buffer: buffer))
                }
            case "cubemap":
                guard cube == nil else { throw invalid(name, "a second Cube pass; Shadertoy has one, Cube A") }
                cube = try pass(object, name: "Cube A", buffer: nil)
            case "sound":
                // Shadertoy plays it as audio beside the picture; the picture never depends on it.
                notices.append("pass '\(name)': a Sound pass is not played (tiltfx draws the picture only)")
            default:
                throw invalid(name, "unknown pass type '\(type)' (known: image, buffer, common, cubemap, sound)")
            }
        }
        guard let image else { throw ShadertoyExport.notExport(file, "it has no pass of type \"image\"") }
        return ShadertoyProgram(common: common, buffers: bufferPasses, cube: cube, image: image)
    }

    private func code(of object: [String: Any], pass: String) throws(PresetError) -> ShadertoyCode {
        guard let text = object["code"] as? String else { throw invalid(pass, "it has no \"code\" text") }
        return ShadertoyCode(name: "\(file)#\(pass)", text: text)
    }

    private mutating func pass(_ object: [String: Any], name: String, buffer: ShadertoyBuffer?) throws(PresetError)
        -> ShadertoyPass
    {
        var channels: [ShadertoyChannel] = []
        for raw in object["inputs"] as? [Any] ?? [] {
            guard let input = raw as? [String: Any] else { throw invalid(name, "an input is not an object") }
            let channel = try self.channel(input, pass: name)
            guard !channels.contains(where: { $0.index == channel.index }) else {
                throw invalid(name, "iChannel\(channel.index) is given twice")
            }
            channels.append(channel)
        }
        return ShadertoyPass(
            name: name, buffer: buffer, code: try code(of: object, pass: name),
            channels: channels.sorted { $0.index < $1.index })
    }

    private mutating func channel(_ input: [String: Any], pass: String) throws(PresetError) -> ShadertoyChannel {
        guard let index = input["channel"].flatMap(Self.idText).flatMap(Int.init), (0...3).contains(index) else {
            throw invalid(pass, "an input has no \"channel\" 0–3")
        }
        let place = "pass '\(pass)', iChannel\(index)"
        let type = (input["ctype"] as? String ?? input["type"] as? String ?? "").lowercased()
        let sampler = input["sampler"] as? [String: Any] ?? [:]
        let settings: ShadertoyChannel.Settings
        do {
            settings = try ShadertoyChannel.Settings(
                filter: sampler["filter"] as? String, wrap: sampler["wrap"] as? String,
                vflip: sampler["vflip"].flatMap(Self.flag))
        } catch { throw .invalid(file, field: place, reason: error.reason) }
        let source: ShadertoyChannel.Source
        switch type {
        case "buffer":
            let id = input["id"].flatMap(Self.idText) ?? ""
            let numbered = Self.numberedBuffer(id)
            guard let buffer = bufferIDs[id] ?? numbered, defined.contains(buffer) else {
                throw .invalid(
                    file, field: place,
                    reason: "buffer input id '\(id)' is the output of no buffer pass in this export")
            }
            source = .buffer(buffer)
        case "texture":
            source = .texture(path: try media(src(input), kind: "texture", place: place))
        case "cubemap":
            let id = input["id"].flatMap(Self.idText) ?? ""
            if cubeIDs.contains(id) || Self.cubeBufferIDs.contains(id) || src(input).contains("/previz/cubemap") {
                guard hasCube else {
                    throw .invalid(file, field: place, reason: "it reads Cube A, but this export has no Cube A pass")
                }
                source = .cubeBuffer
            } else {
                source = .cubemap(faces: try cubeFaces(src(input), place: place))
            }
        case "keyboard":
            source = .keyboard
        case "video":
            source = .video(path: try media(src(input), kind: "video", place: place))
        case "webcam":
            source = .webcam
        case "music", "musicstream":
            source = .music(path: music(src(input), type: type, place: place))
        case "mic":
            source = .microphone
        case "volume":
            throw .invalid(
                file, field: place,
                reason: "a volume (3D texture) input is not supported; remove the input from the pass")
        default:
            throw .invalid(
                file, field: place,
                reason:
                    "unknown input type '\(type)' (known: texture, buffer, cubemap, keyboard, video, webcam, music, "
                    + "musicstream, mic)")
        }
        return ShadertoyChannel(index: index, source: source, settings: settings)
    }

    /// An input's media path as the export writes it (`src`, or `filepath` in older exports).
    private func src(_ input: [String: Any]) -> String {
        input["src"] as? String ?? input["filepath"] as? String ?? ""
    }

    /// The folders searched for media: the export's own, then the assets folder.
    private var folders: [String] { [directory] + [assets].compactMap { $0 } }

    /// The file `base` in the first of ``folders`` that has it.
    private func find(_ base: String) -> String? {
        for folder in folders {
            let candidate = URL(fileURLWithPath: base, relativeTo: URL(fileURLWithPath: folder, isDirectory: true))
                .standardizedFileURL.path
            if FileManager.default.isReadableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Where a missing file was looked for, and what to do.
    private var lookedIn: String {
        "looked in \(folders.joined(separator: " and ")); "
            + (assets == nil ? "put it beside the export or pass --assets DIR" : "put it in one of them")
    }

    /// The file for a texture's or video's `src`: its base name beside the export, then in the assets folder.
    private func media(_ src: String, kind: String, place: String) throws(PresetError) -> String {
        let base = PathText.name(of: src)
        guard !base.isEmpty else { throw .invalid(file, field: place, reason: "a \(kind) input has no \"src\"") }
        guard let found = find(base) else {
            throw .invalid(file, field: place, reason: "\(kind) file '\(base)' (src \(src)) not found; \(lookedIn)")
        }
        return found
    }

    /// The six faces of a cube map whose `src` names the first: Shadertoy stores `NAME.EXT` (+X), then `NAME_1.EXT` …
    /// `NAME_5.EXT` (−X, +Y, −Y, +Z, −Z), GL's order.
    private func cubeFaces(_ src: String, place: String) throws(PresetError) -> [String] {
        let base = PathText.name(of: src)
        guard !base.isEmpty else { throw .invalid(file, field: place, reason: "a cubemap input has no \"src\"") }
        let dot = base.lastIndex(of: ".") ?? base.endIndex
        let (stem, ext) = (base[..<dot], base[dot...])
        let names = [base] + (1...5).map { "\(stem)_\($0)\(ext)" }
        var faces: [String] = []
        var missing: [String] = []
        for name in names {
            if let found = find(name) { faces.append(found) } else { missing.append(name) }
        }
        if missing.count == names.count {
            throw .invalid(
                file, field: place,
                reason: "cube map file '\(names[0])' (src \(src)) not found, nor its other five faces \(names[1]) … "
                    + "\(names[5]); \(lookedIn)")
        }
        guard missing.isEmpty else {
            throw .invalid(
                file, field: place,
                reason: "cube map face\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) (src \(src)) "
                    + "not found; a cube map is six files, \(names[0]) and \(names[1]) … \(names[5]); \(lookedIn)")
        }
        return faces
    }

    /// A music input's file, or `nil` (silence) with a notice when it is not found: an audio-reactive shader still
    /// draws. A `musicstream` (a SoundCloud link in Shadertoy) has no file to find.
    private mutating func music(_ src: String, type: String, place: String) -> String? {
        let base = PathText.name(of: src)
        if type == "music", !base.isEmpty, let found = find(base) { return found }
        let what = type == "musicstream" ? "a music stream (\(src)) is not fetched" : "music file '\(base)' not found"
        notices.append(
            "\(place): \(what); the channel hears silence (\(type == "music" ? lookedIn : "give the export a music input with a file"))"
        )
        return nil
    }

    private func invalid(_ pass: String, _ reason: String) -> PresetError {
        .invalid(file, field: "pass '\(pass)'", reason: reason)
    }

    /// Shadertoy's ids for Cube A: its string id, and the number older exports use.
    static let cubeBufferIDs: Set<String> = ["4dX3Rr", "41"]

    /// The buffer an older export's numeric id names: 257–260 are Buffers A–D.
    static func numberedBuffer(_ id: String) -> ShadertoyBuffer? {
        guard let n = Int(id), (257...260).contains(n) else { return nil }
        return ShadertoyBuffer(rawValue: n - 257)
    }

    /// An id or channel number as text, whether the export wrote a number or a string.
    static func idText(_ value: Any) -> String? {
        if let s = value as? String { return s }
        if let n = value as? Int { return String(n) }
        if let x = value as? Double { return x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }
        return nil
    }

    /// A flag written as a boolean or as `"true"` / `"false"`.
    static func flag(_ value: Any) -> Bool? {
        if let s = value as? String { return s == "true" ? true : s == "false" ? false : nil }
        if let b = value as? Bool { return b }
        return (value as? Int).map { $0 != 0 }
    }
}
