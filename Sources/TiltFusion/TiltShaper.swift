import TiltCore

/// Turns an attitude into the UI tilt signal: re-centred on a reference pose (tare), smoothed with a 1€ filter,
/// then soft-clamped.
///
/// The tilt is ``SwingTilt`` of `reference⁻¹ ⊗ attitude`, the rotation from the reference pose: how far the screen
/// has tipped about its own x and y axes, whatever it turned in its plane, folded back to zero where it faces away
/// from the reference. No Euler angles and no history are involved, so there is no gimbal lock and no jump on any
/// continuous motion.
package struct TiltShaper: Sendable {
    /// Shaping parameters.
    package struct Configuration: Sendable, Hashable {
        /// Smoothing of each tilt component.
        package var smoothing: OneEuroFilter.Configuration
        /// The soft clamp's limit, radians.
        package var limit: Double

        package init(
            smoothing: OneEuroFilter.Configuration = .init(minCutoff: 1.0, beta: 0.3, derivativeCutoff: 1.0),
            limit: Double = 0.5
        ) {
            self.smoothing = smoothing
            self.limit = limit
        }
    }

    package var configuration: Configuration
    /// The tare pose, device → earth; `nil` until the first attitude (which becomes the reference) or a tare.
    package private(set) var reference: Quaternion?
    /// The first reference (the first attitude, or the first pose given to ``tare(to:)``): the pose
    /// ``resetTare()`` returns to.
    package private(set) var initialReference: Quaternion?
    private var filterX: OneEuroFilter
    private var filterY: OneEuroFilter
    private var tareRequested = false

    package init(configuration: Configuration = .init()) {
        self.configuration = configuration
        filterX = OneEuroFilter(configuration: configuration.smoothing)
        filterY = OneEuroFilter(configuration: configuration.smoothing)
    }

    /// Re-centres on the next attitude passed to ``shape(_:at:)``.
    package mutating func tare() {
        tareRequested = true
    }

    /// Re-centres on `attitude` now.
    package mutating func tare(to attitude: Quaternion) {
        reference = attitude.normalized
        if initialReference == nil { initialReference = reference }
        tareRequested = false
        filterX.reset()
        filterY.reset()
    }

    /// Undoes every tare: the tilt is relative to the first reference again, as if no tare had been asked for.
    ///
    /// A tare still waiting for the next attitude is cancelled. The filters restart, as at a tare.
    ///
    /// - Returns: The first reference, or `nil` before the first attitude (which then becomes it).
    @discardableResult
    package mutating func resetTare() -> Quaternion? {
        tareRequested = false
        guard let initialReference else { return nil }
        tare(to: initialReference)
        return initialReference
    }

    /// Forgets the smoothing's history (after a gap, whose times may go back): the next tilt passes unsmoothed.
    package mutating func restartSmoothing() {
        filterX.reset()
        filterY.reset()
    }

    /// The shaped tilt for `attitude` observed at `time` seconds.
    package mutating func shape(_ attitude: Quaternion, at time: Double) -> AttitudeFrame.Tilt {
        if reference == nil || tareRequested { tare(to: attitude) }
        let relative = (reference ?? attitude).conjugate * attitude
        let raw = SwingTilt.of(relative)
        let clamp = SoftClamp(limit: configuration.limit)
        return AttitudeFrame.Tilt(
            x: clamp(filterX.filter(raw.x, at: time)),
            y: clamp(filterY.filter(raw.y, at: time)))
    }
}
