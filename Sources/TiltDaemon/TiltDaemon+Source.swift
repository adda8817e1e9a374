import TiltCore
import TiltSensors

extension TiltDaemon.Source {
    /// Opens the samples this source names. The daemon and `tiltd --check` open it here, so both say the same about
    /// a source that cannot be read.
    /// - Throws: ``DaemonError`` saying what could not be opened, and why.
    func open() throws(DaemonError) -> any MotionSource {
        do {
            return try configuration.open()
        } catch {
            throw DaemonError(.source, "\(configuration.openFailure): \(error)")
        }
    }
}
