import TiltEffects

/// The textures a frame of a given size needs, checked against the GL's limits before anything is allocated.
///
/// A layer pass renders into a texture padded on each side by how far the next pass samples outside the canvas
/// (``RenderPass/outputPadding``), so a preset with a layer effect needs targets larger than the output itself:
/// `misty-glass` at 16384×16384 needs a 16464×16464 texture, one that a GL with a 16384 limit cannot make.
package enum TargetSizeCheck {
    /// The largest target (width, height) a frame of `width`×`height` needs for `passes`: the output, or a padded
    /// layer texture.
    package static func largestTarget(width: Int, height: Int, passes: [RenderPass]) -> SIMD2<Int> {
        let padding = largestPadding(passes)
        return SIMD2(width + 2 * padding.x, height + 2 * padding.y)
    }

    /// The largest output size that fits `limits` with `passes`' padding.
    package static func largestOutput(passes: [RenderPass], limits: GLLimits) -> SIMD2<Int> {
        limits.maxTarget &- 2 &* largestPadding(passes)
    }

    /// Throws when a frame of `width`×`height` needs a target over `limits`.
    ///
    /// - Parameter renderer: the GL renderer's name, for the message.
    /// - Throws: ``RenderError`` naming the limit, the size that was asked for and the largest `--size` that fits.
    package static func check(
        width: Int, height: Int, passes: [RenderPass], limits: GLLimits, renderer: String
    ) throws(RenderError) {
        let needed = largestTarget(width: width, height: height, passes: passes)
        let limit = limits.maxTarget
        guard needed.x > limit.x || needed.y > limit.y else { return }
        let fits = largestOutput(passes: passes, limits: limits)
        let padding = largestPadding(passes)
        let why =
            padding == .zero
            ? "" : " (a layer pass pads its texture by \(padding.x)x\(padding.y) px on each side)"
        throw .argument(
            "size \(width)x\(height) needs a \(needed.x)x\(needed.y) render target\(why), over the limit of "
                + "\(limit.x)x\(limit.y) of this GL (\(renderer): \(limits.summary)); give a smaller --size, "
                + "at most \(max(1, fits.x))x\(max(1, fits.y)) for this preset")
    }

    private static func largestPadding(_ passes: [RenderPass]) -> SIMD2<Int> {
        var padding = SIMD2<Int>.zero
        for pass in passes.dropLast() {
            padding = pointwiseMax(padding, SIMD2(Int(pass.outputPadding.x), Int(pass.outputPadding.y)))
        }
        return padding
    }
}
