import Logging
import Synchronization

/// The daemon's log level, shared by every logger it made, so that `SIGHUP` can change it in place.
package final class LogLevelControl: Sendable {
    private let state: Mutex<Logger.Level>

    package init(_ level: Logger.Level) {
        state = Mutex(level)
    }

    /// The level in force: messages below it are not written.
    package var level: Logger.Level {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}
