import TiltCore

extension AttitudeFilter {
    /// Across a gap the gyroscope is unknown: integrate one nominal interval only (returned), and start the
    /// accelerometer and heading averages afresh, re-anchoring the attitude.
    @usableFromInline
    mutating func restartAcrossGap() -> Double {
        accelFilter.reset()
        gyroErrors.restart()
        rest.clearBlock()
        accelSum = .zero
        accelCount = 0
        hardIron.clearBlock()
        blockStart = qGyro
        heading.restart()
        disturbedCount = 0
        missingRx = .zero
        missingRy = .zero
        missingRz = .zero
        blockTime = 0
        blockCount = 0
        return nominalInterval
    }

    /// The next sample comes after a gap: samples were lost, or the time goes back (a recording across a daemon
    /// restart). It is fused as after a gap longer than a second, whatever its time says: one nominal interval of
    /// the gyroscope is integrated, not the jump, and the averages start afresh. Before the first sample it does
    /// nothing (that one initialises the filter anyway).
    package mutating func markGap() {
        if started { gapPending = true }
    }
}
