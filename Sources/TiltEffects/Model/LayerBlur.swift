import FoundationEssentials
import Glibc

/// A Gaussian blur of the layer below a layer effect (its `"blur"` key), which the effect reads with
/// `sampleLayerBlurred(layer, position)`: the renderer shrinks the layer by ``downsample``, then blurs it
/// separably (a horizontal then a vertical pass, ``passes`` times), redrawing it only when the layer was redrawn.
package struct LayerBlur: Sendable, Hashable {
    /// The blur's standard deviation in canvas pixels (`"radius"`).
    package var radius: Double
    /// By how much each side is shrunk before blurring (`"downsample"`, 1…8, default 4).
    package var downsample: Int
    /// How many horizontal + vertical pass pairs (`"passes"`, 1…4, default 2); each blurs by radius / √passes.
    package var passes: Int

    /// A blur from its parts.
    package init(radius: Double, downsample: Int = 4, passes: Int = 2) {
        self.radius = radius
        self.downsample = downsample
        self.passes = passes
    }

    /// The most taps on each side of a pass's centre tap (the shader's loop bound).
    package static let maxTaps = 24

    /// One pass's kernel at the shrunk resolution, for bilinear sampling: the centre weight, then pairs of
    /// neighbouring texels folded into one tap each (offset in texels from the centre, weight), for each side.
    /// The weights (centre plus twice each tap) sum to 1.
    package func kernel() -> (centre: Double, taps: [(offset: Double, weight: Double)]) {
        let sigma = radius / Double(max(1, downsample)) / Double(max(1, passes)).squareRoot()
        guard sigma > 0.05 else { return (1, []) }
        let reach = min(2 * Self.maxTaps, Int((3 * sigma).rounded(.up)))
        let g = (0...reach).map { i in exp(-Double(i * i) / (2 * sigma * sigma)) }
        let total = g[0] + 2 * g.dropFirst().reduce(0, +)
        var taps: [(Double, Double)] = []
        var i = 1
        while i <= reach {
            let a = g[i] / total
            let b = i + 1 <= reach ? g[i + 1] / total : 0
            let w = a + b
            taps.append(((Double(i) * a + Double(i + 1) * b) / w, w))
            i += 2
        }
        return (g[0] / total, taps)
    }
}
