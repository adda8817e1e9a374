/// One full-screen draw: a base stage followed by a chain of colour and distortion effects.
package struct RenderPass: Sendable, Hashable {
    /// What the pass starts from.
    package enum Input: Sendable, Hashable {
        /// A transparent layer: the first effect draws the content.
        case transparent
        /// The user's picture (`--image`), fitted to the canvas: the first effect shades it.
        case picture
        /// A Shadertoy `mainImage` draws the content.
        case shadertoy(file: String)
        /// Shadertoy's Cube A: the `mainCubemap` of `file` draws one face of a cube map (which face: the uniform
        /// `tilt_cubeFace`). Only the Shadertoy passes render it, never a preset's chain.
        case shadertoyCube(file: String)
        /// The layer effect `effects[index]` of the preset, reading the previous pass's texture.
        case layer(effectIndex: Int)
        /// An opaque copy of the previous pass's colour (shows a stateful pass's ping-pong output; a stateful effect
        /// may keep state of its own, such as a density, in alpha).
        case copy
        /// The previous pass's texture at the same position: a static pass baked once (see ``RenderPass/isStatic``).
        case baked
    }

    /// What the pass starts from.
    package var input: Input
    /// Indices into the preset's `effects` of the colour and distortion effects chained after the input, in order.
    package var chain: [Int]
    /// Extra pixels (x, y) around the canvas that this pass's output texture holds, because the next pass's layer
    /// effect (and the distortions chained after it) may sample that far outside. Zero for the last pass.
    package var outputPadding: SIMD2<Double>
    /// Whether the pass reads its own previous frame, so it renders into one of two ping-pong textures.
    package var stateful: Bool
    /// Whether nothing the pass reads changes per frame (no time, motion, pointer or previous frame, and it reads no
    /// dynamic pass): the renderer draws it once into its texture and reuses it until the size, the shaders or the
    /// content change. Never true for the last pass, which draws to the output.
    package var isStatic: Bool

    /// Creates a pass.
    package init(
        input: Input, chain: [Int] = [], outputPadding: SIMD2<Double> = .zero, stateful: Bool = false,
        isStatic: Bool = false
    ) {
        self.input = input
        self.chain = chain
        self.outputPadding = outputPadding
        self.stateful = stateful
        self.isStatic = isStatic
    }

    /// Whether the pass samples the previous pass's output texture.
    package var readsPreviousPass: Bool {
        switch input {
        case .layer, .copy, .baked: true
        case .transparent, .picture, .shadertoy, .shadertoyCube: false
        }
    }
}
