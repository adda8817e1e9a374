import Synchronization
import TiltCore

/// A motion source whose samples pass through a ``Calibration`` before anyone sees them.
///
/// The calibration can be replaced while the source runs (a daemon reloading its files), and takes effect from
/// the next sample.
public final class CalibratedMotionSource: MotionSource {
    /// The source whose samples are corrected.
    public let base: any MotionSource
    private let current: Mutex<Calibration?>

    /// Wraps `base`; `calibration` `nil` passes samples through unchanged.
    public init(base: any MotionSource, calibration: Calibration?) {
        self.base = base
        current = Mutex(calibration)
    }

    public var sensors: [SensorDescription] { base.sensors }
    public var name: String { base.name }
    public var summary: String { base.summary }
    public var calibrationLabel: String? { base.calibrationLabel }

    /// The calibration applied now.
    public var calibration: Calibration? { current.withLock { $0 } }

    /// Replaces the calibration (`nil`: none) from the next sample on.
    public func setCalibration(_ calibration: Calibration?) {
        current.withLock { $0 = calibration }
    }

    public func run(rate: Double?, events: @Sendable (MotionSourceEvent) -> Void) async throws {
        try await base.run(rate: rate) { event in
            if case .sample(let sample) = event, let calibration = current.withLock({ $0 }) {
                events(.sample(calibration.apply(sample)))
            } else {
                events(event)
            }
        }
    }
}
