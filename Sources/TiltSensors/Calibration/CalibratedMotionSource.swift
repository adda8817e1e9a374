import Synchronization
import TiltCore

/// A motion source whose samples pass through a ``Calibration`` before anyone sees them.
///
/// The calibration can be replaced while the source runs (a daemon reloading its files), and takes effect from
/// the next sample.
package final class CalibratedMotionSource: MotionSource {
    /// The source whose samples are corrected.
    package let base: any MotionSource
    private let current: Mutex<Calibration?>

    /// Wraps `base`; `calibration` `nil` passes samples through unchanged.
    package init(base: any MotionSource, calibration: Calibration?) {
        self.base = base
        current = Mutex(calibration)
    }

    package var sensors: [SensorDescription] { base.sensors }
    package var name: String { base.name }
    package var summary: String { base.summary }
    package var calibrationLabel: String? { base.calibrationLabel }

    /// The calibration applied now.
    package var calibration: Calibration? { current.withLock { $0 } }

    /// Replaces the calibration (`nil`: none) from the next sample on.
    package func setCalibration(_ calibration: Calibration?) {
        current.withLock { $0 = calibration }
    }

    package func run(rate: Double?, events: @Sendable (MotionSourceEvent) -> Void) async throws {
        try await base.run(rate: rate) { event in
            if case .sample(let sample) = event, let calibration = current.withLock({ $0 }) {
                events(.sample(calibration.apply(sample)))
            } else {
                events(event)
            }
        }
    }
}
