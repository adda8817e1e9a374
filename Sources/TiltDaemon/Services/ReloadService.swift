import Logging
import ServiceLifecycle
import Synchronization
import TiltCore
import TiltFusion
import TiltPower
import TiltSensors
import UnixSignals

#if canImport(Glibc)
    import Glibc
#endif

/// Reloads on `SIGHUP`: reads the config file again, puts the new limits, groups and log level in force, and
/// re-resolves the calibration, all without dropping a client.
///
/// A config that does not load is logged and the one in force is kept. A new `socket_group` is applied to the socket
/// file the daemon made (not to one systemd passed). Settings that need a new source or socket (`socket`, `replay`,
/// `uri`, …) are reported as needing a restart.
final class ReloadService: Service {
    let signals: UnixSignalsSequence
    let hub: Hub
    let source: CalibratedMotionSource
    /// The socket file the daemon created, whose group a reload may change; `nil` under socket activation.
    let socketFile: String?
    let settings: DaemonSettings
    let logLevel: LogLevelControl?
    let reload: (@Sendable () throws -> TiltDaemon.Configuration)?
    let logger: Logger
    private let state: Mutex<TiltDaemon.Configuration>

    init(
        signals: UnixSignalsSequence, hub: Hub, source: CalibratedMotionSource,
        socketFile: String?, settings: DaemonSettings, logLevel: LogLevelControl?,
        configuration: TiltDaemon.Configuration, reload: (@Sendable () throws -> TiltDaemon.Configuration)?,
        logger: Logger
    ) {
        self.signals = signals
        self.hub = hub
        self.source = source
        self.socketFile = socketFile
        self.settings = settings
        self.logLevel = logLevel
        state = Mutex(configuration)
        self.reload = reload
        self.logger = logger
    }

    func run() async throws {
        for await _ in signals.cancelOnGracefulShutdown() {
            reloadNow()
        }
    }

    /// One reload, as `SIGHUP` asks.
    func reloadNow() {
        Systemd.notifyReloading()
        defer { Systemd.notify("READY=1") }
        logger.notice("SIGHUP: reloading")
        let current = state.withLock { $0 }
        var next = current
        if let reload {
            do {
                next = try reload()
            } catch {
                logger.error("reload failed, keeping the configuration in force: \(error)")
                return
            }
        }
        for name in restartOnlyChanges(from: current, to: next) {
            logger.warning("\(name) changed; restart tiltd to apply it (kept as it was)")
        }
        next.socketPath = current.socketPath
        next.source = current.source
        next.pipeline = current.pipeline
        next.power = current.power
        next.eventLoopThreads = current.eventLoopThreads
        if next.policy.socketGroup != current.policy.socketGroup {
            if let socketFile {
                let group = next.policy.socketGroup ?? UnixGroup(name: "the daemon's group", gid: UInt32(getgid()))
                do {
                    try SocketFile.setGroup(socketFile, group: group)
                    logger.notice("socket group changed", metadata: ["group": "\(group.name)"])
                } catch {
                    logger.error("\(error.message); the socket keeps its group")
                    next.policy.socketGroup = current.policy.socketGroup
                }
            } else {
                logger.warning("socket_group changed; systemd owns the socket: set SocketGroup= in tiltd.socket")
                next.policy.socketGroup = current.policy.socketGroup
            }
        }
        settings.replace(next.policy)
        logLevel?.level = next.logLevel
        let resolution = TiltDaemon(configuration: next, logger: logger)
            .resolveCalibration(for: source.base)
        source.setCalibration(resolution.calibration)
        hub.setCalibration(resolution.explanation, applied: resolution.calibration != nil)
        if resolution.problems.isEmpty {
            logger.notice("calibration: \(resolution.explanation)")
        } else {
            logger.warning("calibration: \(resolution.explanation)")
        }
        state.withLock { $0 = next }
        logger.notice(
            "reloaded",
            metadata: [
                "max_clients": "\(next.policy.maxClients)", "max_line_length": "\(next.policy.maxLineLength)",
                "commands_per_second": "\(next.policy.commandsPerSecond)",
                "admin_group": "\(next.policy.adminGroup?.name ?? "none")", "log_level": "\(next.logLevel)",
            ])
    }

    private func restartOnlyChanges(from old: TiltDaemon.Configuration, to new: TiltDaemon.Configuration) -> [String] {
        var names: [String] = []
        if old.socketPath != new.socketPath { names.append("socket") }
        if old.source != new.source { names.append("the source (replay, speed, loop, uri, no_mag)") }
        if old.pipeline.shaping.limit != new.pipeline.shaping.limit { names.append("limit") }
        if (old.power == nil) != (new.power == nil) || old.power?.pollInterval != new.power?.pollInterval {
            names.append("power settings")
        }
        return names
    }
}
