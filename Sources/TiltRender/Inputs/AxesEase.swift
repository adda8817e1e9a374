import TiltCore

/// Eases the tilt across a change of picture axes, so the effect does not jump when the display turns.
///
/// When the display turns, frames come in the new picture's axes, and the same pose gives another tilt vector: a
/// renderer that took it at once would snap. Instead, for ``duration`` seconds after the first frame in new axes the
/// tilt moves from the last one shown to the new frames' value with a smoothstep, then follows them again.
struct AxesEase {
    /// How long the blend lasts, seconds.
    static let duration = 0.15

    private var axes: ScreenRotation?
    private var shown: SIMD2<Double>?
    private var from = SIMD2<Double>.zero
    private var start: Double?

    /// The tilt to show for a frame's `tilt` in `axes` at `now` (seconds, any monotonic origin).
    mutating func ease(_ tilt: SIMD2<Double>, axes: ScreenRotation, at now: Double) -> SIMD2<Double> {
        if let previous = self.axes, previous != axes, let shown {
            from = shown
            start = now
        }
        self.axes = axes
        var out = tilt
        if let start {
            let s = min(max((now - start) / Self.duration, 0), 1)
            if s >= 1 {
                self.start = nil
            } else {
                let k = s * s * (3 - 2 * s)
                out = from + (tilt - from) * k
            }
        }
        shown = out
        return out
    }
}
