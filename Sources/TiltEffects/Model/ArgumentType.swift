/// The GLSL type of an effect argument.
package enum ArgumentType: Sendable, Hashable {
    case float
    case vec2
    case vec3
    case vec4
    /// A colour: a `vec4`, written as `[r, g, b, a]` or `"#rrggbb[aa]"` in a preset; premultiplied when passed.
    case color
    /// A `float[count]` array.
    case floatArray(count: Int)
    /// A `sampler2D`: one of the preset's named textures (`"texture": "NAME"`).
    case texture

    /// The number of scalar components a value of this type holds.
    package var componentCount: Int {
        switch self {
        case .float: 1
        case .vec2: 2
        case .vec3: 3
        case .vec4, .color: 4
        case .floatArray(let count): count
        case .texture: 0
        }
    }

    /// The type as GLSL spells it.
    package var glslName: String {
        switch self {
        case .float: "float"
        case .vec2: "vec2"
        case .vec3: "vec3"
        case .vec4, .color: "vec4"
        case .floatArray(let count): "float[\(count)]"
        case .texture: "sampler2D"
        }
    }

    /// Parses the spelling used in preset files: `float`, `vec2`, `vec3`, `vec4`, `color`, `float[N]`,
    /// `texture`.
    package init?(presetName: String) {
        switch presetName {
        case "float": self = .float
        case "vec2": self = .vec2
        case "vec3": self = .vec3
        case "vec4": self = .vec4
        case "color", "colour": self = .color
        case "texture": self = .texture
        default:
            guard presetName.hasPrefix("float["), presetName.hasSuffix("]"),
                let n = Int(presetName.dropFirst(6).dropLast()), n > 0
            else { return nil }
            self = .floatArray(count: n)
        }
    }
}
