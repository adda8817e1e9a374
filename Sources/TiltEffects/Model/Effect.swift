/// One shader effect of a preset: a GLSL function of one of the three kinds, with its arguments.
package struct Effect: Sendable, Hashable {
    /// The GLSL function's name.
    package var function: String
    /// The kind, which fixes the function's leading parameters.
    package var kind: EffectKind
    /// The GLSL file that defines the function (absolute path).
    package var file: String
    /// The arguments after the fixed parameters, in order.
    package var arguments: [EffectArgument]
    /// How far (in pixels, x and y) a distortion or layer effect may sample away from the position it shades.
    package var maxSampleOffset: SIMD2<Double>
    /// Whether the effect reads its own previous frame (`samplePrevious`), which gives it ping-pong textures.
    package var stateful: Bool
    /// Whether the effect draws the preset's default content, which a picture (`--image`) replaces: it is left out
    /// of the plan when a picture is given.
    package var content: Bool = false
    /// Whether the planner may bake the effect when it reads nothing per frame (the preset's `bake`, default true).
    /// `false` keeps it in the pass drawn every frame: for an effect cheaper to compute than a texture is to read,
    /// as on a software renderer.
    package var bake: Bool
    /// The blur of the layer below that a layer effect reads with `sampleLayerBlurred` (its `blur` key), if any.
    package var blur: LayerBlur?
    /// Whether an argument samples a texture of the preset's simulation, which changes every frame.
    package var readsSimulation = false

    /// The names of the preset textures its arguments sample.
    package var textureNames: [String] {
        arguments.compactMap { if case .texture(let name) = $0.binding { name } else { nil } }
    }

    /// Creates an effect.
    package init(
        function: String, kind: EffectKind, file: String, arguments: [EffectArgument] = [],
        maxSampleOffset: SIMD2<Double> = .zero, stateful: Bool = false, bake: Bool = true
    ) {
        self.bake = bake
        self.function = function
        self.kind = kind
        self.file = file
        self.arguments = arguments
        self.maxSampleOffset = maxSampleOffset
        self.stateful = stateful
    }
}
