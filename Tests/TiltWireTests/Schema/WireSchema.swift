import TiltWire

/// The protocol as data: a JSON Schema (draft 2020-12) of every client command and server message, generated from
/// lines TiltWire's own writer wrote (``WireSchemaExamples``: each message with every optional field set, and with
/// none), so the writer stays the one source of truth. `scripts/protocol-schema` writes it to
/// `docs/protocol.schema.json`; ``ProtocolSchemaTests`` checks the committed file is what the writer makes now.
///
/// From the lines: an object's properties in wire order, required where every example has the key; a number that
/// may be fractional is `number` or `null` (the protocol writes a non-finite number as `null`), a whole one
/// `integer`; a number array of one length in every example (a vector, a quaternion) has that length; `class` and
/// `cmd` are constants. Objects listed in ``maps`` hold any keys.
enum WireSchema {
    /// Objects whose keys are data, not fields: `status.dsu.dropped` (per-reason counts).
    static let maps: Set<String> = ["status.dsu.dropped"]

    /// The schema of a value seen as `observations` at `path` (`nil`: the key was absent from that example).
    static func schema(of observations: [JSONTree?], path: String) -> JSONTree {
        let seen = observations.compactMap { $0 }
        var types: [String] = []
        func add(_ type: String) { if !types.contains(type) { types.append(type) } }
        for value in seen {
            switch value {
            case .null: add("null")
            case .bool: add("boolean")
            case .integer: add("integer")
            case .number: add("number")
            case .string: add("string")
            case .array: add("array")
            case .object: add("object")
            }
        }
        if types.contains("number") {
            types.removeAll { $0 == "integer" || $0 == "null" }
            types.append("null")
        }
        var fields: [(key: String, value: JSONTree)] = [
            ("type", types.count == 1 ? .string(types[0]) : .array(types.map { .string($0) }))
        ]
        let objects = seen.compactMap { value -> [(key: String, value: JSONTree)]? in
            if case .object(let f) = value { return f } else { return nil }
        }
        if !objects.isEmpty {
            if maps.contains(path) {
                let values = objects.flatMap { $0.map(\.value) }
                fields.append(("additionalProperties", schema(of: values, path: path + "{}")))
            } else {
                var keys: [String] = []
                for object in objects { for (key, _) in object where !keys.contains(key) { keys.append(key) } }
                let properties = keys.map { key in
                    (
                        key: key,
                        value: schema(of: objects.map { o in o.first { $0.key == key }?.value }, path: "\(path).\(key)")
                    )
                }
                fields.append(("properties", .object(properties)))
                let required = keys.filter { key in objects.allSatisfy { o in o.contains { $0.key == key } } }
                fields.append(("required", .array(required.map { .string($0) })))
            }
        }
        let arrays = seen.compactMap { value -> [JSONTree]? in
            if case .array(let items) = value { return items } else { return nil }
        }
        if !arrays.isEmpty {
            fields.append(("items", schema(of: arrays.flatMap { $0 }, path: path + "[]")))
            let numeric = arrays.allSatisfy { $0.allSatisfy { if case .number = $0 { true } else { $0 == .null } } }
            if numeric, let count = arrays.first?.count, count > 0, arrays.allSatisfy({ $0.count == count }) {
                fields += [("minItems", .integer(count)), ("maxItems", .integer(count))]
            }
        }
        return .object(fields)
    }

    /// The schema of one message or command: its discriminator (`class` or `cmd`) a constant, the rest from
    /// `lines`.
    static func definition(discriminator: String, name: String, lines: [String]) throws -> JSONTree {
        let trees = try lines.map(JSONTree.parse)
        guard case .object(var fields) = schema(of: trees, path: name) else { return .null }
        if let at = fields.firstIndex(where: { $0.key == "properties" }),
            case .object(var properties) = fields[at].value,
            let d = properties.firstIndex(where: { $0.key == discriminator })
        {
            properties[d].value = .object([("const", .string(name))])
            fields[at].value = .object(properties)
        }
        return .object(fields)
    }

    /// The whole document: `serverMessage` and `clientCommand`, each one of its definitions chosen by `class` or
    /// `cmd`.
    static func document(messages: [(name: String, lines: [String])], commands: [(name: String, lines: [String])])
        throws -> JSONTree
    {
        var definitions: [(key: String, value: JSONTree)] = []
        func refs(_ prefix: String, _ names: [String]) -> JSONTree {
            .array(names.map { .object([("$ref", .string("#/$defs/\(prefix).\($0)"))]) })
        }
        definitions.append(
            (
                "serverMessage",
                .object([
                    ("description", .string("A line tiltd writes: its class says which message it is.")),
                    ("oneOf", refs("message", messages.map(\.name))),
                ])
            ))
        definitions.append(
            (
                "clientCommand",
                .object([
                    ("description", .string("A line a client writes: its cmd says which command it is.")),
                    ("oneOf", refs("command", commands.map(\.name))),
                ])
            ))
        for m in messages {
            definitions.append(
                ("message.\(m.name)", try definition(discriminator: "class", name: m.name, lines: m.lines)))
        }
        for c in commands {
            definitions.append(
                ("command.\(c.name)", try definition(discriminator: "cmd", name: c.name, lines: c.lines)))
        }
        return .object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("title", .string("tiltd's socket protocol, version \(WireProtocol.version)")),
            (
                "description",
                .string(
                    "One JSON object per line each way (docs/protocol.md). Generated by scripts/protocol-schema from "
                        + "the lines TiltWire writes; do not edit. Clients ignore fields they do not know.")
            ),
            (
                "oneOf",
                .array([
                    .object([("$ref", .string("#/$defs/serverMessage"))]),
                    .object([("$ref", .string("#/$defs/clientCommand"))]),
                ])
            ),
            ("$defs", .object(definitions)),
        ])
    }

    /// What is wrong with `value` under `schema` (of the document `root`), strictly: a key no property names is a
    /// problem too (the golden lines are exactly what the writer writes). Empty when it is valid.
    static func problems(_ value: JSONTree, _ schema: JSONTree, root: JSONTree, at path: String = "$") -> [String] {
        if case .string(let ref)? = schema["$ref"] {
            let name = String(ref.dropFirst("#/$defs/".count))
            guard let target = root["$defs"]?[name] else { return ["\(path): no definition \(ref)"] }
            return problems(value, target, root: root, at: path)
        }
        if case .array(let branches)? = schema["oneOf"] {
            // A message or command: the branch its class or cmd names, and what is wrong with it there.
            for key in ["class", "cmd"] {
                guard let name = value[key] else { continue }
                let named = branches.filter { branch in
                    guard case .string(let ref)? = branch["$ref"] else { return false }
                    return root["$defs"]?[String(ref.dropFirst("#/$defs/".count))]?["properties"]?[key]?["const"]
                        == name
                }
                if let branch = named.first, named.count == 1 { return problems(value, branch, root: root, at: path) }
                return ["\(path): \(key) \(name.pretty()) is none of the protocol's"]
            }
            let matching = branches.filter { problems(value, $0, root: root, at: path).isEmpty }
            if matching.count == 1 { return [] }
            return ["\(path): matches \(matching.count) of the \(branches.count) choices, not one"]
        }
        var found: [String] = []
        if let constant = schema["const"], constant != value { return ["\(path): expected \(constant.pretty())"] }
        if let type = schema["type"] {
            let allowed: [String] =
                switch type {
                case .string(let t): [t]
                case .array(let ts): ts.compactMap { if case .string(let t) = $0 { t } else { nil } }
                default: []
                }
            let actual: String =
                switch value {
                case .null: "null"
                case .bool: "boolean"
                case .integer: "integer"
                case .number: "number"
                case .string: "string"
                case .array: "array"
                case .object: "object"
                }
            let ok = allowed.contains(actual) || (actual == "integer" && allowed.contains("number"))
            if !ok { return ["\(path): a \(actual), expected \(allowed.joined(separator: " or "))"] }
        }
        switch value {
        case .object(let fields):
            if case .object(let properties)? = schema["properties"] {
                for (key, sub) in fields {
                    guard let property = properties.first(where: { $0.key == key })?.value else {
                        found.append("\(path): '\(key)' is not a field of this message")
                        continue
                    }
                    found += problems(sub, property, root: root, at: "\(path).\(key)")
                }
            }
            if case .array(let required)? = schema["required"] {
                for case .string(let key) in required where !fields.contains(where: { $0.key == key }) {
                    found.append("\(path): '\(key)' is missing")
                }
            }
            if let each = schema["additionalProperties"] {
                for (key, sub) in fields { found += problems(sub, each, root: root, at: "\(path).\(key)") }
            }
        case .array(let items):
            if case .integer(let least)? = schema["minItems"], items.count < least {
                found.append("\(path): \(items.count) items, at least \(least)")
            }
            if case .integer(let most)? = schema["maxItems"], items.count > most {
                found.append("\(path): \(items.count) items, at most \(most)")
            }
            if let each = schema["items"] {
                for (i, item) in items.enumerated() { found += problems(item, each, root: root, at: "\(path)[\(i)]") }
            }
        default: break
        }
        return found
    }
}
