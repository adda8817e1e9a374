import TiltEffects

/// `--scale`, `scale`: how many of an output's pixels the wallpaper draws. A frame drawn at a fraction of them each
/// way is stretched to the whole output (linear filtering) before it is shown; its effect costs about the square of
/// the fraction.
package enum RenderScale: Sendable, Hashable {
    /// This fraction each way, from ``Preset/scaleRange``; 1 draws every pixel.
    case fixed(Double)
    /// A fraction picked from the measured draw time (``AutoScale``) so that a frame takes at most a third of the
    /// frame period, never below the preset's `minScale`.
    case auto

    /// Every pixel.
    package static let full = RenderScale.fixed(1)

    /// `0.5`, `1`, `auto`; `nil` for anything else.
    package init?(text: String) {
        if text == "auto" {
            self = .auto
        } else if let value = Double(text), Preset.scaleRange.contains(value) {
            self = .fixed(value)
        } else {
            return nil
        }
    }

    /// What `--scale` and `scale` take, for messages.
    package static let choices = "a fraction from 0.25 to 1, or auto"

    /// As written: `0.5`, `auto`.
    package var text: String {
        switch self {
        case .auto: "auto"
        case .fixed(let value): value == value.rounded() ? String(Int(value)) : "\(value)"
        }
    }

    /// The fraction to draw `preset` at before any measurement: a fixed one, raised to the preset's `minScale`;
    /// `auto` starts at full size.
    package func initial(for preset: Preset) -> Double {
        switch self {
        case .auto: 1
        case .fixed(let value): max(value, preset.minScale)
        }
    }
}

/// `--scale auto`: picks the fraction of an output's pixels to draw from how long frames take, so that a frame's
/// drawing fits its budget (a third of the frame period: the rest is the compositor's, the other outputs' and the
/// machine's).
///
/// A frame's cost is taken as proportional to the pixels drawn (the square of the scale), measured over a few
/// frames (their median, so one slow frame does not decide); the new scale is the largest step of 0.05 that fits,
/// within the preset's `minScale` and 1. It goes down as soon as frames are over budget, and up only by a clear
/// margin (0.1), so a scale that just fits does not flip back and forth.
package struct AutoScale: Sendable, Hashable {
    /// The least scale the preset allows.
    package let floor: Double
    /// Seconds a frame's drawing may take.
    package let budget: Double
    /// The scale frames are drawn at now.
    package private(set) var scale: Double
    /// Seconds a frame at full size would take, from each frame measured since the last decision.
    private var fullSizeCosts: [Double] = []
    /// Frames measured per decision.
    package static let window = 5

    /// A controller for frames of `framePeriod` seconds, starting at `start`, never below `floor`.
    package init(floor: Double, framePeriod: Double, start: Double = 1) {
        self.floor = min(max(floor, Preset.scaleRange.lowerBound), 1)
        self.budget = framePeriod / 3
        self.scale = min(max(start, self.floor), 1)
    }

    /// The median full-size cost of the frames measured so far in this window, seconds; `nil` before any.
    package var estimatedFullSizeCost: Double? {
        guard !fullSizeCosts.isEmpty else { return nil }
        return fullSizeCosts.sorted()[fullSizeCosts.count / 2]
    }

    /// Adds a frame drawn at ``scale`` that took `seconds`.
    /// - Returns: the new scale when this frame completes a window and the scale changes, else `nil`.
    package mutating func add(seconds: Double) -> Double? {
        guard seconds.isFinite, seconds >= 0 else { return nil }
        fullSizeCosts.append(seconds / (scale * scale))
        guard fullSizeCosts.count >= Self.window, let cost = estimatedFullSizeCost else { return nil }
        fullSizeCosts.removeAll()
        let fits = cost > 0 ? (budget / cost).squareRoot() : 1
        let next = min(max((fits * 20).rounded(.down) / 20, floor), 1)
        guard next != scale, next < scale || next >= scale + 0.1 else { return nil }
        scale = next
        return next
    }
}
