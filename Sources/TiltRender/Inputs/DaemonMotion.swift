import Dispatch
import Synchronization
import TiltClient
import TiltCore
import TiltWire

/// The latest attitude frame from `tiltd`, kept by a background task so a render loop can read it without waiting.
package final class DaemonMotion: Sendable {
    /// What is known about the daemon.
    package struct Snapshot: Sendable {
        /// The newest frame, if any arrived.
        package var frame: AttitudeFrame?
        /// Whether the connection is up.
        package var connected: Bool
        /// Why the last connection ended or failed.
        package var lastProblem: String?
        /// The newest power state.
        package var power: PowerState?
        /// When the newest frame was received, seconds on the monotonic clock (its `mono`'s clock).
        package var received: Double?
    }

    /// The shared state, in a class so the background task can hold it without holding `self`.
    private final class Shared: Sendable {
        let mutex = Mutex(Snapshot(frame: nil, connected: false, lastProblem: nil, power: nil, received: nil))
        /// Signalled when the power state or the connection changes, for loops that sleep until then.
        let changed = DispatchSemaphore(value: 0)
    }

    private let shared = Shared()
    private let subscriber: TiltSubscriber
    private let task: Task<Void, Never>

    /// The socket path in use.
    package var socketPath: String { subscriber.socketPath }

    /// Subscribes at `rate` Hz to the daemon at `socketPath` (nil: `$TILTD_SOCKET` or the default), for frames in
    /// the axes of a picture turned by `screenRotation`.
    /// `predict` asks frames predicted that many seconds ahead of their samples (0: none).
    package init(socketPath: String?, rate: Double, screenRotation: ScreenRotation = .normal, predict: Double = 0) {
        var configuration = TiltSubscriber.Configuration(
            socketPath: socketPath, rate: rate, screenRotation: screenRotation)
        configuration.predict = predict
        let subscriber = TiltSubscriber(configuration: configuration)
        self.subscriber = subscriber
        let shared = self.shared
        task = Task.detached {
            for await event in subscriber.events() {
                let before = shared.mutex.withLock { ($0.power, $0.connected) }
                shared.mutex.withLock { s in
                    switch event {
                    case .connected(let hello):
                        s.connected = true
                        s.power = hello.power.state
                    case .message(.attitude(let frame)):
                        s.frame = frame
                        s.received = monotonicSeconds()
                    case .message(.power(let power)): s.power = power
                    case .disconnected(let reason):
                        s.connected = false
                        s.lastProblem = reason
                    default: break
                    }
                }
                let after = shared.mutex.withLock { ($0.power, $0.connected) }
                if after != before { shared.changed.signal() }
            }
        }
    }

    /// The current state.
    package var snapshot: Snapshot { shared.mutex.withLock { $0 } }

    /// Changes the frame rate asked of the daemon (and watches).
    package func setRate(_ rate: Double) { subscriber.setRate(rate) }

    /// Asks for frames in the axes of a picture turned by `rotation` (the display turned).
    package func setScreenRotation(_ rotation: ScreenRotation) { subscriber.setScreenRotation(rotation) }

    /// Asks frames predicted `seconds` ahead of their samples (0: none).
    package func setPredict(_ seconds: Double) { subscriber.setPredict(seconds) }

    /// Starts or stops frames from the daemon (`power` events keep coming either way).
    package func setWatching(_ on: Bool) { subscriber.setWatching(on) }

    /// Watches motion at `rate` Hz, or stops watching when it is `nil` (what a power mode asks for).
    package func watch(rate: Double?) {
        if let rate { setRate(rate) } else { setWatching(false) }
    }

    /// Sleeps until the power state or the connection changes, or `timeout` seconds pass; returns whether it changed.
    @discardableResult
    package func waitForChange(timeout: Double) -> Bool {
        shared.changed.wait(timeout: .now() + max(0, timeout)) == .success
    }

    /// Stops the subscription.
    package func close() {
        subscriber.close()
        task.cancel()
    }

    deinit { close() }
}
