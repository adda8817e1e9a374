import TiltCore

/// Turns an attitude into the UI tilt signal: re-centred on a reference pose (tare), smoothed with a 1€ filter,
/// then soft-clamped.
///
/// The tilt is the x and y components of the rotation vector of `reference⁻¹ ⊗ attitude`, the rotation from the
/// reference pose expressed in the reference device frame. No Euler angles are involved, so there is no gimbal
/// lock and no jump at ±π.
public struct TiltShaper: Sendable {
    /// Shaping parameters.
    public struct Configuration: Sendable, Hashable {
        /// Smoothing of each tilt component.
        public var smoothing: OneEuroFilter.Configuration
        /// The soft clamp's limit, radians.
        public var limit: Double

        public init(
            smoothing: OneEuroFilter.Configuration = .init(minCutoff: 1.0, beta: 0.3, derivativeCutoff: 1.0),
            limit: Double = 0.5
        ) {
            self.smoothing = smoothing
            self.limit = limit
        }
    }

    public var configuration: Configuration
    /// The tare pose, device → earth; `nil` until the first attitude (which becomes the reference) or a tare.
    public private(set) var reference: Quaternion?
    private var filterX: OneEuroFilter
    private var filterY: OneEuroFilter
    private var tareRequested = false

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        filterX = OneEuroFilter(configuration: configuration.smoothing)
        filterY = OneEuroFilter(configuration: configuration.smoothing)
    }

    /// Re-centres on the next attitude passed to ``shape(_:at:)``.
    public mutating func tare() {
        tareRequested = true
    }

    /// Re-centres on `attitude` now.
    public mutating func tare(to attitude: Quaternion) {
        reference = attitude.normalized
        tareRequested = false
        filterX.reset()
        filterY.reset()
    }

    /// The shaped tilt for `attitude` observed at `time` seconds.
    public mutating func shape(_ attitude: Quaternion, at time: Double) -> AttitudeFrame.Tilt {
        if reference == nil || tareRequested { tare(to: attitude) }
        let relative = (reference ?? attitude).conjugate * attitude
        let v = relative.rotationVector
        let clamp = SoftClamp(limit: configuration.limit)
        return AttitudeFrame.Tilt(
            x: clamp(filterX.filter(v.x, at: time)),
            y: clamp(filterY.filter(v.y, at: time)))
    }
}
