/// Splits a preset's effects into render passes.
///
/// A chain of colour and distortion effects compiles into one pass. Each layer effect ends the pass before it,
/// whose output becomes a texture padded by the layer effect's `maxSampleOffset` (plus the offsets of distortions
/// chained after it in the same pass, which move where the layer is sampled). A stateful layer effect renders into
/// ping-pong textures; when it ends the plan, a copy pass shows its output.
///
/// Then it bakes what does not move (`PassPlanner+Baking.swift`): a pass that reads nothing per frame is static, and
/// the static leading part of a pass whose chain goes on with a dynamic effect becomes a pass of its own.
package enum PassPlanner {
    /// Plans the passes for `preset`, drawn on the user's picture when `picture`, reading its GLSL files to find what
    /// each stage depends on.
    /// - Returns: at least one pass; the last one draws to the output.
    package static func plan(
        _ preset: Preset, picture: Bool = false,
        readFile: DependencyAnalysis.FileReader = DependencyAnalysis.readFromDisk
    ) -> [RenderPass] {
        plan(
            effects: preset.effects, shadertoy: preset.shadertoy, picture: picture,
            shadertoyDependencies: DependencyAnalysis.dependencies(ofShadertoyIn: preset, readFile: readFile),
            readFile: readFile)
    }

    /// Plans the passes for an effect list with an optional Shadertoy base. With a `picture`, the first pass starts
    /// from it (unless a Shadertoy draws the base) and the effects marked `content` are left out.
    /// - Parameter shadertoyDependencies: what the Shadertoy base reads per frame, when the caller knows more than
    ///   its file says (a Shadertoy program with buffers); `nil` reads the file.
    package static func plan(
        effects: [Effect], shadertoy: String?, picture: Bool = false,
        shadertoyDependencies: FrameDependencies? = nil,
        readFile: DependencyAnalysis.FileReader = DependencyAnalysis.readFromDisk
    ) -> [RenderPass] {
        let start: RenderPass.Input = shadertoy.map { .shadertoy(file: $0) } ?? (picture ? .picture : .transparent)
        var passes: [RenderPass] = [RenderPass(input: start)]
        for (index, effect) in effects.enumerated() where !(picture && effect.content) {
            if effect.kind.isPassBoundary {
                passes.append(RenderPass(input: .layer(effectIndex: index), stateful: effect.stateful))
            } else {
                passes[passes.count - 1].chain.append(index)
            }
        }
        if passes.last?.stateful == true {
            passes.append(RenderPass(input: .copy))
        }
        passes = bake(
            passes,
            staticEffects: effects.map {
                $0.bake && DependencyAnalysis.dependencies(of: $0, readFile: readFile).isStatic
            },
            shadertoy: shadertoyDependencies
                ?? shadertoy.map { DependencyAnalysis.dependencies(ofShadertoy: $0, readFile: readFile) } ?? [])
        // Each pass that reads a texture needs the previous output padded by how far it samples away (a baked pass
        // is sampled where the distortions after it send each position).
        for i in passes.indices.dropFirst() where passes[i].readsPreviousPass {
            var pad = SIMD2<Double>.zero
            if case .layer(let e) = passes[i].input { pad += effects[e].maxSampleOffset }
            for c in passes[i].chain where effects[c].kind == .distortion { pad += effects[c].maxSampleOffset }
            passes[i - 1].outputPadding = SIMD2(pad.x.rounded(.up), pad.y.rounded(.up))
        }
        return passes
    }
}
