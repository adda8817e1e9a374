extension PassPlanner {
    /// Marks the static passes and splits off static leading parts.
    ///
    /// A pass's start is static when its input is: a transparent layer or the user's picture always (a new picture makes
    /// a new renderer), a Shadertoy base that names no
    /// per-frame uniform, a layer effect that is static and reads a static pass. Its chain stays static up to the
    /// first dynamic effect (or one marked `"bake": false`). When that first dynamic effect follows a static part that does work (a Shadertoy base, a
    /// layer effect or at least one effect), the static part becomes a pass of its own, drawn into a texture once,
    /// and the rest starts from that texture (`.baked`). A pass that is static to its end is static whole. The last
    /// pass draws to the output and is never static; a preset that is static throughout is left alone (the frame
    /// scheduler draws it only when its size changes).
    ///
    /// - Parameters:
    ///   - staticEffects: by index, whether each effect may be baked: it reads nothing per frame, and its preset entry
    ///     does not say `"bake": false`.
    ///   - shadertoy: the Shadertoy base's dependencies (empty when there is none).
    static func bake(
        _ passes: [RenderPass], staticEffects: [Bool], shadertoy: FrameDependencies
    ) -> [RenderPass] {
        var result: [RenderPass] = []
        var previousStatic = true
        for (index, pass) in passes.enumerated() {
            let last = index == passes.count - 1
            let inputStatic: Bool
            switch pass.input {
            case .transparent, .picture: inputStatic = true
            case .shadertoy, .shadertoyCube: inputStatic = shadertoy.isStatic
            case .layer(let e): inputStatic = previousStatic && staticEffects[e]
            case .copy, .baked: inputStatic = previousStatic
            }
            let firstDynamic =
                inputStatic ? (pass.chain.firstIndex { !staticEffects[$0] } ?? pass.chain.count) : 0
            previousStatic = inputStatic && firstDynamic == pass.chain.count
            if previousStatic {
                var whole = pass
                whole.isStatic = !last
                result.append(whole)
            } else if inputStatic && (firstDynamic > 0 || (pass.input != .transparent && pass.input != .picture)) {
                // (a picture alone is already a texture, fitted once per size: nothing to bake)
                var head = pass
                head.chain = Array(pass.chain[..<firstDynamic])
                head.isStatic = true
                result.append(head)
                result.append(RenderPass(input: .baked, chain: Array(pass.chain[firstDynamic...])))
            } else {
                result.append(pass)
            }
        }
        return result
    }
}
