extension PresetKeys {
    /// The first object of the object form of `shadertoy` (the program, its buffers and cube, their channels) holding an
    /// unknown key, or `nil` (also for the plain file name).
    static func shadertoyUnknown(_ value: Any?) -> PresetKeys? {
        guard let program = value as? [String: Any] else { return nil }
        if let found = check(program, PresetFile.ProgramEntry.CodingKeys.self, field: "shadertoy") { return found }
        var passes: [(field: String, object: [String: Any])] = [("shadertoy", program)]
        for (name, buffer) in (program["buffers"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
            let field = "shadertoy.buffers.\(name)"
            let object = buffer as? [String: Any] ?? [:]
            if let found = check(object, PresetFile.BufferEntry.CodingKeys.self, field: field) { return found }
            passes.append((field, object))
        }
        if let cube = program["cube"] as? [String: Any] {
            if let found = check(cube, PresetFile.BufferEntry.CodingKeys.self, field: "shadertoy.cube") { return found }
            passes.append(("shadertoy.cube", cube))
        }
        for (field, object) in passes {
            for (i, channel) in objects(object["channels"]).enumerated() {
                let place = "\(field).channels[\(i)]"
                if let found = check(channel, PresetFile.ChannelEntry.CodingKeys.self, field: place) { return found }
            }
        }
        return nil
    }
}
