import ArgumentParser

/// A `WxH` size.
struct PixelSize: ExpressibleByArgument, CustomStringConvertible, Sendable {
    var width: Int
    var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The largest side tiltfx renders (the GL may allow less; `TargetSizeCheck` says so then).
    static let maxSide = 16384

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        // Sizes out of range parse, so that `check` can say what the range is (exit 64, a usage mistake).
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        self.init(width: w, height: h)
    }

    /// What is wrong with this size given to `option`, or `nil` when each side is from 1 to ``maxSide``.
    func problem(option: String = "--size") -> String? {
        guard !(1...Self.maxSide).contains(width) || !(1...Self.maxSide).contains(height) else { return nil }
        return "\(option) \(self): each side must be from 1 to \(Self.maxSide) pixels, e.g. 1280x720"
    }

    var description: String { "\(width)x\(height)" }
}

/// An `X,Y` tilt in radians.
struct TiltPair: ExpressibleByArgument, CustomStringConvertible, Sendable {
    var x: Double
    var y: Double

    /// Whether both components lie within ±π: a rotation vector's meaningful range (a larger angle is the same
    /// rotation the other way round, and no clamp of tiltd's ever sends one).
    var isWithinOneTurn: Bool { abs(x) <= .pi && abs(y) <= .pi }

    var description: String { "\(x),\(y)" }

    init?(argument: String) {
        let parts = argument.split(separator: ",")
        // Out-of-range and non-finite numbers parse, so that `validate` can say what the range is.
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]) else { return nil }
        self.x = x
        self.y = y
    }
}
