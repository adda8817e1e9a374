import TiltCore
import TiltEffects

/// A request a page sends to `/edit` (docs/serve.md), keyed on `cmd`.
///
/// Decoding it says what is wrong with a bad one (no `cmd`, an unknown one, a missing field) as a
/// `ServeMessageError`, whose text goes back to the page in an `error` message.
enum EditRequest: Decodable, Equatable {
    /// `{"cmd":"list"}`.
    case list
    /// `{"cmd":"open","preset":NAME}`.
    case open(preset: String)
    /// `{"cmd":"compile","preset":NAME,"files":{FILE:SOURCE,…}}`.
    case compile(preset: String, files: [String: String])
    /// `{"cmd":"save","preset":NAME,"files":{FILE:SOURCE,…}}`.
    case save(preset: String, files: [String: String])

    /// The values of `cmd`.
    enum Command: String {
        case list, open, compile, save
    }

    private enum CodingKeys: String, CodingKey {
        case cmd, preset, files
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // A field of the wrong type is as good as missing: the page is told which one to send.
        guard let name = (try? c.decodeIfPresent(String.self, forKey: .cmd)) ?? nil else {
            throw ServeMessageError(.unknownCommand, "no \"cmd\": send {\"cmd\":\"list\"}, open, compile or save")
        }
        guard let command = Command(rawValue: name) else {
            throw ServeMessageError(.unknownCommand, "unknown cmd '\(name)': /edit knows list, open, compile and save")
        }
        func preset() throws(ServeMessageError) -> String {
            guard let preset = (try? c.decodeIfPresent(String.self, forKey: .preset)) ?? nil else {
                throw ServeMessageError(.missingField, "no \"preset\": name one")
            }
            return preset
        }
        func files() throws(ServeMessageError) -> [String: String] {
            guard let files = (try? c.decodeIfPresent([String: String].self, forKey: .files)) ?? nil else {
                throw ServeMessageError(
                    .missingField, "no \"files\": send {\"cmd\":\"\(name)\",\"preset\":NAME,\"files\":{FILE:SOURCE}}")
            }
            return files
        }
        switch command {
        case .list: self = .list
        case .open: self = .open(preset: try preset())
        case .compile: self = .compile(preset: try preset(), files: try files())
        case .save: self = .save(preset: try preset(), files: try files())
        }
    }

    /// The request in one text message from the page.
    static func decode(_ text: String) throws(ServeMessageError) -> EditRequest {
        try ServeJSON.decode(EditRequest.self, from: text)
    }
}

/// An answer `/edit` sends (docs/serve.md); its `class` says which.
enum EditReply: Encodable {
    /// One preset of the list.
    struct PresetEntry: Encodable, Equatable {
        var name: String
        var title: String
        var description: String
    }

    /// `{"class":"presets","presets":[…]}`, the answer to `list`.
    case presets([PresetEntry])
    /// `{"class":"preset",…}`, the answer to `open`: the files, and the program or (when it does not compile) the
    /// errors.
    case preset(name: String, files: [String: String], program: ProgramDescription?, errors: [Diagnostic])
    /// `{"class":"compiled",…}`, the answer to `compile`: `ok` with the program, or the errors; `ms` the time it took.
    case compiled(program: ProgramDescription?, errors: [Diagnostic], milliseconds: Double)
    /// `{"class":"saved","ok":true,"files":[…]}`, the answer to a `save` that wrote the files.
    case saved(files: [String])
    /// `{"class":"error","message":…}`.
    case error(String)

    typealias Diagnostic = ShaderSourceMap.Diagnostic

    private enum CodingKeys: String, CodingKey {
        case `class`, presets, preset, files, program, errors, ok, ms, message
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .presets(let presets):
            try c.encode("presets", forKey: .class)
            try c.encode(presets, forKey: .presets)
        case .preset(let name, let files, let program, let errors):
            try c.encode("preset", forKey: .class)
            try c.encode(name, forKey: .preset)
            try c.encode(files, forKey: .files)
            try c.encodeIfPresent(program, forKey: .program)
            if !errors.isEmpty { try c.encode(errors, forKey: .errors) }
        case .compiled(let program, let errors, let milliseconds):
            try c.encode("compiled", forKey: .class)
            try c.encode(program != nil, forKey: .ok)
            try c.encode(milliseconds, forKey: .ms)
            try c.encodeIfPresent(program, forKey: .program)
            if program == nil { try c.encode(errors, forKey: .errors) }
        case .saved(let files):
            try c.encode("saved", forKey: .class)
            try c.encode(true, forKey: .ok)
            try c.encode(files, forKey: .files)
        case .error(let message):
            try c.encode("error", forKey: .class)
            try c.encode(message, forKey: .message)
        }
    }

    /// The reply as the text message the page gets.
    var text: String { ServeJSON.string(self) }
}
