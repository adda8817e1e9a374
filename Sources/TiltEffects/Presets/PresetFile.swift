import FoundationEssentials

/// The on-disk shape of `preset.json`, decoded as written and then checked by `resolve`.
///
/// Every object's keys are checked against its `CodingKeys` (``PresetKeys``): a misspelt optional key would otherwise
/// be ignored.
struct PresetFile: Decodable {
    /// One argument as written.
    struct Argument: Decodable {
        var name: String?
        var type: String
        var bind: String?
        var value: Value?
        var texture: String?

        /// The keys an argument may hold.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, type, bind, value, texture
        }
    }

    /// One named texture as written.
    struct TextureEntry: Decodable {
        var file: String?
        var filter: String?
        var wrap: String?

        /// The keys a texture may hold.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case file, filter, wrap
        }
    }

    /// A constant: a number, an array of numbers, or a `#rrggbb[aa]` colour.
    enum Value: Decodable {
        case numbers([Double])
        case hex(String)

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let n = try? c.decode(Double.self) {
                self = .numbers([n])
            } else if let a = try? c.decode([Double].self) {
                self = .numbers(a)
            } else {
                self = .hex(try c.decode(String.self))
            }
        }
    }

    /// One effect as written.
    struct EffectEntry: Decodable {
        var kind: String
        var function: String
        var file: String
        var arguments: [Argument]?
        var maxSampleOffset: [Double]?
        var stateful: Bool?
        var content: Bool?
        var bake: Bool?
        var blur: BlurEntry?

        /// The keys an effect may hold.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case kind, function, file, arguments, maxSampleOffset, stateful, content, bake, blur
        }
    }

    var description: String?
    var shadertoy: ShadertoyEntry?
    var effects: [EffectEntry]?
    var power: PowerPolicyEntry?
    var textures: [String: TextureEntry]?
    var simulation: SimulationEntry?
    var minScale: Double?

    /// The keys the file's top level may hold.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case description, shadertoy, effects, power, textures, simulation, minScale
    }

    /// Decodes the text of `file`.
    ///
    /// - Throws: `PresetError` with the line and column of a syntax error, the field of a wrong value, or the
    ///   object holding an unknown key.
    static func decode(_ data: Data, file: String) throws(PresetError) -> PresetFile {
        // Parsed once untyped first: JSONDecoder says neither where a syntax error is nor which keys it skipped.
        let json: Any
        do {
            json = try UntypedJSON.parse(data)
        } catch {
            let syntax = JSONTextPosition.syntaxError(error, in: data)
            throw .syntax(file, line: syntax.position.line, column: syntax.position.column, reason: syntax.reason)
        }
        if let unknown = PresetKeys.firstUnknown(in: json) {
            throw .invalid(file, field: unknown.field, reason: unknown.reason)
        }
        do {
            return try JSONDecoder().decode(PresetFile.self, from: data)
        } catch let error as DecodingError {
            throw .invalid(file, field: Self.codingPath(of: error), reason: Self.reason(of: error))
        } catch {
            throw .invalid(file, field: "(file)", reason: "\(error)")
        }
    }

    private static func codingPath(of error: DecodingError) -> String {
        let path: [any CodingKey]
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
            path = c.codingPath
        @unknown default: path = []
        }
        let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return text.isEmpty ? "(top level)" : String(text.drop { $0 == "." })
    }

    private static func reason(of error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, _): "expected \(type)"
        case .valueNotFound(let type, _): "missing \(type) value"
        case .keyNotFound(let key, _): "missing key '\(key.stringValue)'"
        case .dataCorrupted(let c): "not valid JSON (\(c.debugDescription))"
        @unknown default: "\(error)"
        }
    }

    /// Checks the decoded values and builds the preset.
    func resolve(name: String, directory: URL, file: String) throws(PresetError) -> Preset {
        func path(_ relative: String, field: String, what: String = "shader") throws(PresetError) -> String {
            let p = URL(fileURLWithPath: relative, relativeTo: directory).standardizedFileURL.path
            guard FileManager.default.isReadableFile(atPath: p) else {
                let kind = field.hasSuffix(".texture") ? "texture" : what
                throw .invalid(
                    file, field: field,
                    reason: "\(kind) file '\(relative)' not found at \(p); create it or fix the name"
                )
            }
            return p
        }
        var textures: [PresetTexture] = []
        for (textureName, entry) in (self.textures ?? [:]).sorted(by: { $0.key < $1.key }) {
            let field = "textures.\(textureName)"
            textures.append(
                try Self.texture(
                    textureName, entry, field: field, file: file,
                    path: entry.file.map { (f: String) throws(PresetError) -> String in
                        try path(f, field: "\(field).file", what: "texture")
                    }))
        }
        let simulation = try simulation.map { (entry: SimulationEntry) throws(PresetError) in
            try entry.resolve(file: file)
        }
        for name in simulation?.textureNames ?? [] {
            guard !textures.contains(where: { $0.name == name }) else {
                throw .invalid(
                    file, field: "textures.\(name)",
                    reason:
                        "'\(name)' is a texture of the \(simulation?.kindName ?? "") simulation; give yours another name"
                )
            }
            var texture = PresetTexture(name: name, file: nil)
            texture.simulated = true
            textures.append(texture)
        }
        var effects: [Effect] = []
        for (i, entry) in (self.effects ?? []).enumerated() {
            let field = "effects[\(i)]"
            guard let kind = EffectKind(rawValue: entry.kind) else {
                throw .invalid(
                    file, field: "\(field).kind", reason: "'\(entry.kind)' is not one of color, distortion, layer")
            }
            guard Self.isIdentifier(entry.function) else {
                throw .invalid(file, field: "\(field).function", reason: "'\(entry.function)' is not a GLSL identifier")
            }
            var arguments: [EffectArgument] = []
            for (j, arg) in (entry.arguments ?? []).enumerated() {
                arguments.append(
                    try Self.argument(
                        arg, field: "\(field).arguments[\(j)]", file: file,
                        context: (entry.function, textures.map(\.name))))
            }
            var offset = SIMD2<Double>.zero
            if let o = entry.maxSampleOffset {
                guard o.count == 2 || o.count == 1, o.allSatisfy({ $0 >= 0 && $0.isFinite }) else {
                    throw .invalid(file, field: "\(field).maxSampleOffset", reason: "give [x, y] in pixels, both ≥ 0")
                }
                offset = SIMD2(o[0], o.count == 2 ? o[1] : o[0])
            }
            let stateful = entry.stateful ?? false
            if stateful && kind != .layer {
                throw .invalid(file, field: "\(field).stateful", reason: "only layer effects can be stateful")
            }
            var effect = Effect(
                function: entry.function, kind: kind, file: try path(entry.file, field: "\(field).file"),
                arguments: arguments, maxSampleOffset: offset, stateful: stateful, bake: entry.bake ?? true)
            effect.content = entry.content ?? false
            effect.readsSimulation = effect.textureNames.contains { simulation?.textureNames.contains($0) ?? false }
            if let blur = entry.blur {
                guard kind == .layer else {
                    throw .invalid(file, field: "\(field).blur", reason: "only layer effects can blur the layer below")
                }
                effect.blur = try blur.resolve(file: file, field: "\(field).blur")
            }
            effects.append(effect)
        }
        let toy = try resolveShadertoy(file: file) { (s, field) throws(PresetError) in try path(s, field: field) }
        if toy == nil && effects.isEmpty {
            throw .invalid(file, field: "effects", reason: "a preset needs at least one effect or a \"shadertoy\" file")
        }
        var preset = Preset(
            name: name, description: description ?? "", directory: directory.path, file: file, shadertoy: toy?.image,
            effects: effects)
        preset.shadertoyProgram = toy?.program
        preset.power = try power?.resolve(file: file)
        if let minScale {
            guard Preset.scaleRange.contains(minScale) else {
                throw .invalid(
                    file, field: "minScale",
                    reason: "give the least render scale the preset looks right at, from 0.25 to 1 (got \(minScale))")
            }
            preset.minScale = minScale
        }
        preset.textures = textures
        preset.simulation = simulation
        return preset
    }

    private static func argument(
        _ arg: Argument, field: String, file: String, context: (function: String, textures: [String])
    ) throws(PresetError) -> EffectArgument {
        guard let type = ArgumentType(presetName: arg.type) else {
            throw .invalid(
                file, field: "\(field).type",
                reason: "'\(arg.type)' is not float, vec2, vec3, vec4, color, float[N] or texture")
        }
        let name = arg.name ?? arg.bind ?? arg.texture ?? "arg"
        if arg.texture != nil || type == .texture {
            return try textureArgument(arg, name: name, field: field, file: file, context: context)
        }
        switch (arg.bind, arg.value) {
        case (let bind?, nil):
            guard let binding = ArgumentBinding.namedBindings[bind] else {
                let names = ArgumentBinding.namedBindings.keys.sorted().joined(separator: ", ")
                throw .invalid(file, field: "\(field).bind", reason: "'\(bind)' is not one of \(names)")
            }
            if let natural = binding.naturalType, natural.componentCount != type.componentCount {
                throw .invalid(
                    file, field: "\(field).type", reason: "'\(bind)' is a \(natural.glslName), not a \(type.glslName)")
            }
            return EffectArgument(name: name, type: type, binding: binding)
        case (nil, let value?):
            var numbers: [Double]
            switch value {
            case .numbers(let n): numbers = n
            case .hex(let h):
                guard let c = Self.hexColor(h) else {
                    throw .invalid(file, field: "\(field).value", reason: "'\(h)' is not a #rrggbb or #rrggbbaa colour")
                }
                numbers = c
            }
            if type == .color && numbers.count == 3 { numbers.append(1) }
            guard numbers.count == type.componentCount else {
                throw .invalid(
                    file, field: "\(field).value",
                    reason: "a \(arg.type) needs \(type.componentCount) numbers, got \(numbers.count)")
            }
            return EffectArgument(name: name, type: type, binding: .constant(numbers))
        default:
            throw .invalid(file, field: field, reason: "give exactly one of \"bind\" or \"value\"")
        }
    }

    /// An argument of type `texture` bound to a declared texture.
    private static func textureArgument(
        _ arg: Argument, name: String, field: String, file: String, context: (function: String, textures: [String])
    ) throws(PresetError) -> EffectArgument {
        guard let texture = arg.texture, arg.bind == nil, arg.value == nil else {
            throw .invalid(
                file, field: field,
                reason: "a texture argument names one of the preset's \"textures\" with \"texture\": \"NAME\" "
                    + "(and has no \"bind\" or \"value\")")
        }
        guard arg.type == "texture" else {
            throw .invalid(file, field: "\(field).type", reason: "an argument with \"texture\" has type \"texture\"")
        }
        guard context.textures.contains(texture) else {
            let declared = context.textures.isEmpty ? "none" : context.textures.joined(separator: ", ")
            throw .invalid(
                file, field: "\(field).texture",
                reason: "effect '\(context.function)' argument '\(name)' samples texture '\(texture)', which no entry "
                    + "of \"textures\" declares (declared: \(declared)); declare it with a file or fix the name")
        }
        return EffectArgument(name: name, type: .texture, binding: .texture(texture))
    }

    /// A texture entry checked: its name a GLSL identifier, its filter and wrap known.
    private static func texture(
        _ name: String, _ entry: TextureEntry, field: String, file: String, path: String?
    ) throws(PresetError) -> PresetTexture {
        guard isIdentifier(name) else {
            throw .invalid(
                file, field: field, reason: "'\(name)' is not a GLSL identifier; name textures like variables")
        }
        func choice<T: RawRepresentable & CaseIterable>(_ value: String?, _ key: String, default d: T)
            throws(PresetError)
            -> T where T.RawValue == String
        {
            guard let value else { return d }
            guard let v = T(rawValue: value) else {
                let names = T.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalid(file, field: "\(field).\(key)", reason: "'\(value)' is not one of \(names)")
            }
            return v
        }
        return PresetTexture(
            name: name, file: path, filter: try choice(entry.filter, "filter", default: .linear),
            wrap: try choice(entry.wrap, "wrap", default: .clamp))
    }

    static func hexColor(_ text: String) -> [Double]? {
        guard text.hasPrefix("#"), text.count == 7 || text.count == 9, let v = UInt32(text.dropFirst(), radix: 16)
        else {
            return nil
        }
        let bytes = text.count == 7 ? [v >> 16, v >> 8, v] : [v >> 24, v >> 16, v >> 8, v]
        return bytes.map { Double($0 & 0xff) / 255 }
    }

    static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic)
        else {
            return false
        }
        return s.unicodeScalars.allSatisfy {
            $0 == "_" || ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0)
        }
    }
}
