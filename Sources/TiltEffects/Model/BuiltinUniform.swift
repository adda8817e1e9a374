/// A uniform tiltfx sets on every pass from the frame's inputs (`iTime`, `iTilt`, …): the one table of them.
///
/// The shader prelude declares them from ``all`` (``ShaderGenerator``), the dependency analysis reads what each
/// depends on from it (``FrameDependencies``), argument bindings name theirs through it (``ArgumentBinding``), the GL
/// renderer sets each from ``FrameInputs`` by its ``source`` and ``type``, and `tiltfx serve` hands the table to the
/// browser preview (the program description's `builtins`), which sets the same uniforms from the same inputs. A new
/// built-in is one entry here (and, for a new kind of input, a ``Source`` case the renderer and the preview read).
package struct BuiltinUniform: Sendable, Hashable {
    /// A built-in's GLSL type.
    package enum GLSLType: String, Sendable, Hashable, Codable {
        case float, int, vec2, vec3, vec4

        /// How many numbers the value has.
        package var componentCount: Int {
            switch self {
            case .float, .int: 1
            case .vec2: 2
            case .vec3: 3
            case .vec4: 4
            }
        }
    }

    /// Which of the frame's inputs a built-in's value is, named as the browser preview names them too.
    package enum Source: String, Sendable, Hashable, Codable, CaseIterable {
        /// Seconds since the effect started.
        case time
        /// Seconds since the previous frame (0 for the first).
        case timeDelta
        /// Frames drawn before this one.
        case frame
        /// Width, height in pixels, and 1 (Shadertoy's pixel aspect).
        case resolution
        /// Shadertoy's `iMouse`: the pointer with y from the bottom, and again, negated while no button is down.
        case mouse
        /// The pointer in pixels, origin top-left.
        case pointer
        /// The tilt signal, radians.
        case tilt
        /// Gravity in the device frame, m/s².
        case gravity
        /// The attitude quaternion as x, y, z, w.
        case attitude
        /// Roll, pitch, yaw, radians.
        case euler
        /// Angular rate, rad/s.
        case rotationRate

        /// The value in `inputs`, in its first `count` lanes (the type's component count).
        @inline(__always)
        package func value(in f: FrameInputs) -> SIMD4<Double> {
            switch self {
            case .time: return SIMD4(f.time, 0, 0, 0)
            case .timeDelta: return SIMD4(f.timeDelta, 0, 0, 0)
            case .frame: return SIMD4(Double(f.frame), 0, 0, 0)
            case .resolution: return SIMD4(f.size.x, f.size.y, 1, 0)
            case .mouse:
                let y = f.size.y - f.pointer.y
                let down: Double = f.pointerDown ? 1 : -1
                return SIMD4(f.pointer.x, y, down * f.pointer.x, down * y)
            case .pointer: return SIMD4(f.pointer.x, f.pointer.y, 0, 0)
            case .tilt: return SIMD4(f.tilt.x, f.tilt.y, 0, 0)
            case .gravity: return SIMD4(f.gravity.x, f.gravity.y, f.gravity.z, 0)
            case .attitude: return f.attitude
            case .euler: return SIMD4(f.euler.x, f.euler.y, f.euler.z, 0)
            case .rotationRate: return SIMD4(f.rotationRate.x, f.rotationRate.y, f.rotationRate.z, 0)
            }
        }
    }

    /// The uniform's name in GLSL.
    package let name: String
    /// Its GLSL type.
    package let type: GLSLType
    /// What it changes with from frame to frame.
    package let dependencies: FrameDependencies
    /// Which input its value is.
    package let source: Source

    package static let time = BuiltinUniform(name: "iTime", type: .float, dependencies: .time, source: .time)
    package static let timeDelta = BuiltinUniform(
        name: "iTimeDelta", type: .float, dependencies: .time, source: .timeDelta)
    package static let resolution = BuiltinUniform(
        name: "iResolution", type: .vec3, dependencies: [], source: .resolution)
    package static let mouse = BuiltinUniform(name: "iMouse", type: .vec4, dependencies: .pointer, source: .mouse)
    package static let frame = BuiltinUniform(name: "iFrame", type: .int, dependencies: .time, source: .frame)
    package static let tilt = BuiltinUniform(name: "iTilt", type: .vec2, dependencies: .motion, source: .tilt)
    package static let gravity = BuiltinUniform(name: "iGravity", type: .vec3, dependencies: .motion, source: .gravity)
    package static let attitude = BuiltinUniform(
        name: "iAttitude", type: .vec4, dependencies: .motion, source: .attitude)
    package static let euler = BuiltinUniform(name: "iEuler", type: .vec3, dependencies: .motion, source: .euler)
    package static let rotationRate = BuiltinUniform(
        name: "iRotationRate", type: .vec3, dependencies: .motion, source: .rotationRate)
    package static let pointer = BuiltinUniform(
        name: "tilt_pointer", type: .vec2, dependencies: .pointer, source: .pointer)

    /// Every built-in, in the order the prelude declares them.
    package static let all: [BuiltinUniform] = [
        time, timeDelta, resolution, mouse, frame, tilt, gravity, attitude, euler, rotationRate, pointer,
    ]

    /// The declaration the shader prelude carries.
    package var declaration: String { "uniform \(type.rawValue) \(name);" }
}
