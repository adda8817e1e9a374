/// Where an effect argument's value comes from each frame.
package enum ArgumentBinding: Sendable, Hashable {
    /// A fixed value from the preset file.
    case constant([Double])
    /// The UI tilt signal, the tip about the screen's x and y axes in radians (`vec2`).
    case tilt
    /// Gravity in the device frame, m/s² (`vec3`).
    case gravity
    /// Euler angles roll, pitch, yaw in radians (`vec3`).
    case euler
    /// Angular rate in rad/s (`vec3`).
    case rotationRate
    /// The attitude quaternion as `vec4(x, y, z, w)`.
    case attitude
    /// Seconds since the effect started (`float`).
    case time
    /// The layer's size in pixels (`vec2`).
    case size
    /// The pointer position in pixels, origin top-left (`vec2`).
    case pointer
    /// One of the preset's named textures (`sampler2D`).
    case texture(String)

    /// The binding names a preset file may use in `"bind"`.
    package static let namedBindings: [String: ArgumentBinding] = [
        "tilt": .tilt, "gravity": .gravity, "euler": .euler, "rotationRate": .rotationRate, "attitude": .attitude,
        "time": .time, "size": .size, "pointer": .pointer,
    ]

    /// The built-in uniform a motion, time or pointer binding reads; `nil` for constants, textures and `size` (which
    /// reads `iResolution.xy`).
    package var builtin: BuiltinUniform? {
        switch self {
        case .constant, .texture, .size: nil
        case .tilt: .tilt
        case .gravity: .gravity
        case .euler: .euler
        case .rotationRate: .rotationRate
        case .attitude: .attitude
        case .time: .time
        case .pointer: .pointer
        }
    }

    /// The type a bound value has, or `nil` for constants (which take the argument's declared type).
    package var naturalType: ArgumentType? {
        switch self {
        case .constant: nil
        case .size: .vec2
        case .texture: .texture
        default:
            switch builtin?.type {
            case .vec2?: .vec2
            case .vec3?: .vec3
            case .vec4?: .vec4
            case .float?, .int?, nil: .float
            }
        }
    }

    /// The GLSL expression that reads this binding's built-in uniform (constants are written as literals instead).
    var uniformExpression: String? {
        switch self {
        case .constant: nil
        case .size: BuiltinUniform.resolution.name + ".xy"
        case .texture(let name): PresetTexture(name: name, file: nil).uniformName
        default: builtin?.name
        }
    }
}
