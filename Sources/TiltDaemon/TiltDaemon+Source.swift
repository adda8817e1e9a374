import TiltCore
import TiltDSU
import TiltEvdev
import TiltIIO
import TiltSensors

extension TiltDaemon.Source {
    /// Opens the samples this source names: the log replayed, the IIO sensors at the URI, or the evdev motion sensor. The daemon and
    /// `tiltd --check` open it here, so both say the same about a source that cannot be read.
    /// - Throws: ``DaemonError`` saying what could not be opened, and why.
    func open() throws(DaemonError) -> any MotionSource {
        switch self {
        case .replay(let replay):
            do {
                return try LogReplaySource(configuration: replay)
            } catch {
                throw DaemonError(.source, "cannot replay: \(error)")
            }
        case .iio(let uri):
            do {
                return try IIOMotionSource(uri: uri)
            } catch {
                throw DaemonError(.source, "cannot read IIO sensors at \(uri): \(error)")
            }
        case .dsu(let configuration):
            do {
                return try DSUMotionSource(configuration: configuration)
            } catch {
                throw DaemonError(.source, "cannot read the DSU server \(configuration.endpoint): \(error)")
            }
        case .evdev(let path):
            do {
                return try EvdevMotionSource(path: path)
            } catch {
                throw DaemonError(.source, "cannot read an evdev motion sensor: \(error)")
            }
        }
    }
}

extension TiltDaemon.Source {
    /// How much faster than real time samples come: a replay's speed, 1 for live sensors.
    var speed: Double {
        if case .replay(let replay) = self { return replay.speed }
        return 1
    }
}
