import Dispatch
import FoundationEssentials
import Logging
import ServiceLifecycle
import Synchronization
import TiltCore
import TiltWire

#if canImport(Glibc)
    import Glibc
#endif

/// `tiltd --sensor-proxy`: serves `net.hadess.SensorProxy` (``SensorProxyBus``) on its own thread, so desktop
/// auto-rotation that talks to iio-sensor-proxy talks to tiltd instead.
///
/// A claim keeps the sensor running as a socket watcher does (``holder``); the hub's orientation changes
/// (``HubObserver``) become `PropertiesChanged` signals. The thread polls the bus connection and a pipe
/// ``orientationChanged(_:)`` rings.
final class SensorProxyService: Service, HubObserver, Sendable {
    /// The `ClaimAccelerometer` callers' hold on the sensor: enough for orientation at little work.
    static let holder = Demand.Holder(name: "net.hadess.SensorProxy claims", leastRate: 20)

    /// A pipe the hub's observer writes a byte to, to wake the bus thread: read end, write end.
    private let wakeup: Int32
    private let wakeupWriter: Int32
    private let shared = Mutex(Shared())
    /// Whether the bus thread has ended, and who waits for it.
    private let finished = Latch()

    private struct Shared {
        var orientation: WireOrientation?
        var stopping = false
        /// The pipe is closed: nothing rings it any more.
        var closed = false
    }

    /// Connects, takes the name and starts serving; returns once the name is owned.
    ///
    /// - Parameter address: The bus (`nil`: the system bus, which honours `DBUS_SYSTEM_BUS_ADDRESS`).
    /// - Throws: ``DaemonError`` when the bus cannot be reached or the name is taken (saying by whom).
    init(address: String?, hub: Hub, logger: Logger) throws(DaemonError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw DaemonError(
                .sensorProxy, "cannot create a pipe for --sensor-proxy: \(String(cString: strerror(errno)))")
        }
        for fd in ends {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wakeup = ends[0]
        wakeupWriter = ends[1]
        let started = Mutex<Result<String, DaemonError>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        // Observed before the first value is read, so no change falls between the two.
        hub.attach(self)
        let initial = hub.orientation
        startThread(name: "tiltd sensor-proxy") { [self] in
            let bus: SensorProxyBus
            do {
                bus = try SensorProxyBus(address: address, orientation: initial)
            } catch {
                started.withLock { $0 = .failure(error as? DaemonError ?? DaemonError(.sensorProxy, "\(error)")) }
                hub.detach(self)
                ready.signal()
                self.finish()
                return
            }
            bus.onClaimsChanged = { callers in
                logger.info("net.hadess.SensorProxy: \(callers) caller(s) claim the accelerometer")
                hub.setHolders(Self.holder, count: callers)
            }
            started.withLock { $0 = .success(bus.description) }
            ready.signal()
            self.serve(bus, logger: logger)
            hub.detach(self)
            hub.setHolders(Self.holder, count: 0)
            bus.close()
            self.finish()
        }
        ready.wait()
        switch started.withLock({ $0 }) {
        case .success(let bus):
            logger.info("serving \(SensorProxyBus.name) on \(bus)")
        case .failure(let error):
            closeWakeup()
            throw error
        case nil:
            closeWakeup()
            throw DaemonError(.sensorProxy, "--sensor-proxy did not start")
        }
    }

    func run() async throws {
        try? await gracefulShutdown()
        shared.withLock { $0.stopping = true }
        ring()
        await finished.wait()
        closeWakeup()
    }

    private func closeWakeup() {
        shared.withLock { s in
            guard !s.closed else { return }
            s.closed = true
            close(wakeup)
            close(wakeupWriter)
        }
    }

    private func ring() {
        shared.withLock { s in
            guard !s.closed else { return }
            var one: UInt8 = 1
            _ = write(wakeupWriter, &one, 1)
        }
    }

    private func finish() { finished.open() }

    func orientationChanged(_ orientation: WireOrientation) {
        shared.withLock { $0.orientation = orientation }
        ring()
    }

    /// The bus thread's loop: until the service stops or the connection breaks.
    private func serve(_ bus: SensorProxyBus, logger: Logger) {
        while true {
            var fds = [
                pollfd(fd: bus.fileDescriptor, events: bus.pollEvents, revents: 0),
                pollfd(fd: wakeup, events: Int16(POLLIN), revents: 0),
            ]
            let n = poll(&fds, 2, -1)
            if n < 0, errno != EINTR {
                logger.error("net.hadess.SensorProxy: poll failed: \(String(cString: strerror(errno)))")
                return
            }
            if fds[1].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                while read(wakeup, &drain, drain.count) > 0 {}
            }
            let (orientation, stopping) = shared.withLock { s in
                defer { s.orientation = nil }
                return (s.orientation, s.stopping)
            }
            if stopping { return }
            if let orientation { bus.setOrientation(orientation) }
            do {
                try bus.process()
            } catch {
                logger.error("net.hadess.SensorProxy: \(error)")
                return
            }
            bus.flush()
        }
    }
}
