import TiltEffects

/// What a WebGL2 preview needs to draw a preset as tiltfx does (docs/serve.md, "PROGRAM").
struct ProgramDescription: Codable, Sendable {
    /// One render pass, in drawing order.
    struct Pass: Codable, Sendable {
        var vertex: String
        var fragment: String
        var input: String
        var stateful: Bool
        var `static`: Bool
        var padding: [Double]
    }

    /// A named texture of the preset.
    struct Texture: Codable, Sendable {
        var name: String
        var uniform: String
        var unit: Int
        var url: String?
        var filter: String
        var wrap: String
        /// For a texture the preset's simulation fills (tiltfx only): the one RGBA texel the preview binds instead.
        var texel: [Int]?
    }

    /// An effect argument and the GLSL expression the generated code passes for it.
    struct Argument: Codable, Sendable {
        var effect: String
        var name: String
        var type: String
        var expression: String
    }

    /// A built-in uniform: what the preview sets on every pass, from which of its frame's inputs.
    struct Builtin: Codable, Sendable, Equatable {
        var name: String
        var type: String
        var source: String
    }

    var passes: [Pass]
    var uniforms: [String: String]
    /// The built-in uniforms (``BuiltinUniform/all``), in order.
    var builtins: [Builtin]
    var textures: [Texture]
    var arguments: [Argument]
    var shadertoyBuffers: Bool

    /// The texture unit of the first named texture (tiltfx's `TextureUnit.firstNamedTexture`).
    static let firstNamedTextureUnit = 8

    /// The uniforms tiltfx's renderer sets on every pass, with their GLSL types: the built-ins, and the pass's own
    /// target, layer and picture.
    static let uniforms: [String: String] = Dictionary(
        uniqueKeysWithValues: BuiltinUniform.all.map { ($0.name, $0.type.rawValue) } + [
            ("tilt_targetSize", "vec2"), ("tilt_targetPadding", "vec2"), ("tilt_layerTexture", "sampler2D"),
            ("tilt_layerPadding", "vec2"), ("tilt_layerTextureSize", "vec2"), ("tilt_previousTexture", "sampler2D"),
            ("tilt_pictureRect", "vec4"),
        ])

    /// The built-in uniforms as the preview reads them.
    static let builtins = BuiltinUniform.all.map {
        Builtin(name: $0.name, type: $0.type.rawValue, source: $0.source.rawValue)
    }

    /// The program of `preset` as planned (`passes`) and generated (`shaders`, one per pass), its texture files
    /// served under `/presets/NAME/`.
    init(preset: Preset, name: String, passes: [RenderPass], shaders: [GeneratedShader]) {
        self.passes = zip(passes, shaders).map { pass, shader in
            Pass(
                vertex: shader.vertexSource, fragment: shader.fragmentSource, input: Self.name(of: pass.input),
                stateful: pass.stateful, static: pass.isStatic,
                padding: [pass.outputPadding.x, pass.outputPadding.y])
        }
        uniforms = Self.uniforms
        builtins = Self.builtins
        textures = preset.textures.enumerated().map { index, texture in
            Texture(
                name: texture.name, uniform: texture.uniformName, unit: Self.firstNamedTextureUnit + index,
                url: texture.file.map { "/presets/\(name)/" + $0.lastComponent },
                filter: texture.filter.rawValue, wrap: texture.wrap.rawValue,
                texel: texture.simulated ? preset.simulation?.restingTexel(of: texture.name).map { Int($0) } : nil)
        }
        arguments = preset.effects.flatMap { effect in
            effect.arguments.map {
                Argument(
                    effect: effect.function, name: $0.name, type: $0.type.glslName, expression: $0.glslExpression)
            }
        }
        shadertoyBuffers = preset.shadertoyProgram != nil
    }

    private static func name(of input: RenderPass.Input) -> String {
        switch input {
        case .transparent: "transparent"
        case .picture: "picture"
        case .shadertoy, .shadertoyCube: "shadertoy"
        case .layer: "layer"
        case .copy: "copy"
        case .baked: "baked"
        }
    }
}

extension String {
    /// The last component of a path.
    fileprivate var lastComponent: String { split(separator: "/").last.map(String.init) ?? self }
}
