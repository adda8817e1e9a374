import Foundation
import TiltCore

/// A synthetic sensor log the daemon tests share: flat for half a second, then tipped about x and y at once (0.3 and
/// 0.15 rad, in half a second) and still; 200 Hz, with a magnetometer.
public enum TippingLog {
    public static func samples(duration: Double) -> [MotionSample] {
        var motion = SyntheticMotion()
        motion.rate = 200
        motion.angularVelocity = { t in t >= 0.5 && t < 1 ? Vector3(0.6, 0.3, 0) : .zero }
        return motion.generate(duration: duration).samples
    }

    /// Writes 20 s of it to `tipping.csv` in `dir`; returns the path.
    public static func write(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("tipping.csv").path
        try CalibrationFixtures.writeLog(samples(duration: 20), to: path)
        return path
    }
}
