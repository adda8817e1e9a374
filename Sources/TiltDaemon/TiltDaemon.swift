import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import TiltCore
import TiltFusion
import TiltPower
import TiltSensors
import TiltWire
import UnixSignals

#if canImport(Glibc)
    import Glibc
#endif

/// The tilt sensor daemon: a motion source, fusion, and the Unix-socket server, run as one service group that
/// shuts down gracefully on SIGTERM and SIGINT.
package struct TiltDaemon: Sendable {
    /// Where samples come from: a log replayed, IIO sensors, an evdev node, a DSU server — any kind's
    /// ``MotionSourceConfiguration`` (``DaemonOptions/sourceKinds`` lists the kinds the settings can name).
    package struct Source: Sendable, Equatable, CustomStringConvertible {
        /// What to read, as the source's own kind describes it.
        package let configuration: any MotionSourceConfiguration

        package init(_ configuration: some MotionSourceConfiguration) {
            self.configuration = configuration
        }

        package static func == (a: Source, b: Source) -> Bool {
            a.configuration.isEqual(to: b.configuration)
        }

        package var description: String { "\(configuration)" }
    }

    /// Daemon settings.
    package struct Configuration: Sendable {
        /// The socket path; `nil` resolves it as ``SocketPath/resolve(_:environment:)`` does.
        package var socketPath: String?
        package var source: Source
        package var pipeline: MotionPipeline.Configuration
        /// Threads serving clients.
        package var eventLoopThreads: Int
        /// Which calibration to apply: searched for IIO sensors, only an explicit file for a replay.
        package var calibration: CalibrationLoader.Choice
        /// Where DMI strings are read to match calibration files (``CalibrationLoader/defaultDMIRoot``).
        package var dmiRoot: String
        /// Where the power state comes from; `nil` publishes mains power and probes nothing.
        package var power: PowerMonitor.Configuration? = .init()
        /// Limits and access rules (reloadable).
        package var policy = ServicePolicy()
        /// The log level (reloadable; applied through the daemon's ``LogLevelControl``).
        package var logLevel: Logger.Level = .info
        /// Serve `net.hadess.SensorProxy` (``SensorProxyService``).
        package var sensorProxy = false
        /// The bus for it; `nil`: the system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket).
        package var sensorProxyBus: String?
        /// Serve the motion over DSU on this UDP address (``DSUServerService``); `nil`: no DSU server.
        package var dsuServer: DSUEndpoint?

        package init(
            socketPath: String? = nil, source: Source, pipeline: MotionPipeline.Configuration = .init(),
            eventLoopThreads: Int = 1,
            calibration: CalibrationLoader.Choice = .automatic(directories: CalibrationLoader.defaultDirectories()),
            dmiRoot: String = CalibrationLoader.defaultDMIRoot
        ) {
            self.socketPath = socketPath
            self.source = source
            self.pipeline = pipeline
            self.eventLoopThreads = eventLoopThreads
            self.calibration = calibration
            self.dmiRoot = dmiRoot
        }
    }

    package var configuration: Configuration
    package var logger: Logger
    /// The level every daemon logger reads, set again on reload; `nil` leaves log levels alone.
    package var logLevel: LogLevelControl?
    /// Builds the configuration afresh on `SIGHUP` (re-reading the config file, flags over it); `nil` keeps the
    /// configuration and only re-resolves the calibration.
    package var reload: (@Sendable () throws -> Configuration)?

    package init(
        configuration: Configuration, logger: Logger, logLevel: LogLevelControl? = nil,
        reload: (@Sendable () throws -> Configuration)? = nil
    ) {
        self.configuration = configuration
        self.logger = logger
        self.logLevel = logLevel
        self.reload = reload
    }

    /// Runs until SIGTERM or SIGINT (or task cancellation), then stops serving and removes the socket file.
    ///
    /// `SIGHUP` reloads (see ``reload``). Under systemd it serves a socket passed by socket activation and sends
    /// readiness notifications.
    ///
    /// - Parameter onReady: Called once the socket accepts connections.
    /// - Throws: ``DaemonError`` when the source or the socket cannot be set up.
    package func run(onReady: @escaping @Sendable () -> Void = {}) async throws {
        let path = SocketPath.resolve(configuration.socketPath)
        let passedCount = Systemd.passedCount
        let passedListener = try Systemd.passedListener()
        if passedCount > 1 {
            logger.warning("systemd passed \(passedCount) sockets; serving the first, fd 3")
        }
        let files = FileLimit.raiseToHardLimit()
        logger.info("open file limit", metadata: ["soft": "\(files.soft)", "hard": "\(files.hard)"])
        if files.soft < UInt64(configuration.policy.maxClients) + 64 {
            let clients = configuration.policy.maxClients
            logger.warning(
                """
                the open file limit (\(files.soft)) is below max_clients (\(clients)) plus headroom; \
                raise LimitNOFILE= or lower max_clients
                """)
        }
        logLevel?.level = configuration.logLevel
        let uncalibrated = try configuration.source.open()
        let resolution = resolveCalibration(for: uncalibrated)
        if resolution.problems.isEmpty {
            logger.info("calibration: \(resolution.explanation)")
        } else {
            logger.warning("calibration: \(resolution.explanation)")
        }
        let source = CalibratedMotionSource(base: uncalibrated, calibration: resolution.calibration)
        let power = configuration.power.map { PowerMonitor(configuration: $0).readFiles() } ?? .mains
        let hub = Hub(
            sourceName: source.name, sensors: source.sensors, calibration: resolution.explanation,
            calibrated: resolution.calibration != nil, power: power,
            mainReference: configuration.pipeline.filter.useMagnetometer
                && source.sensors.contains { $0.kinds.contains(.magnetometer) } ? .magnetic : .game,
            speed: configuration.source.configuration.speed)
        let sensorProxy =
            configuration.sensorProxy
            ? try SensorProxyService(address: configuration.sensorProxyBus, hub: hub, logger: logger) : nil
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.eventLoopThreads))
        let settings = DaemonSettings(policy: configuration.policy, daemonUID: Int(getuid()))
        let server = SocketServer(
            path: path, hub: hub, group: group, settings: settings, logger: logger, passedListener: passedListener
        ) {
            Systemd.notify("READY=1\nSTATUS=serving \(path)")
            onReady()
        }
        let dsuServer: DSUServerService?
        if let endpoint = configuration.dsuServer {
            do {
                dsuServer = try await DSUServerService.start(endpoint: endpoint, hub: hub, group: group, logger: logger)
            } catch {
                try? await group.shutdownGracefully()
                throw error
            }
        } else {
            dsuServer = nil
        }
        let motion = MotionService(hub: hub, source: source, pipeline: configuration.pipeline, logger: logger)
        let powerService = configuration.power.map { PowerService(hub: hub, configuration: $0, logger: logger) }
        // Trap SIGHUP before the socket is ready, so a reload asked for at once is not a termination.
        let reloader = ReloadService(
            signals: await UnixSignalsSequence(trapping: .sighup), hub: hub, source: source,
            socketFile: passedListener == nil ? path : nil, settings: settings, logLevel: logLevel,
            configuration: configuration, reload: reload, logger: logger)
        let services = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: server, successTerminationBehavior: .gracefullyShutdownGroup),
                    .init(service: motion),
                    .init(service: reloader),
                ] + (powerService.map { [.init(service: $0)] } ?? [])
                    + (sensorProxy.map { [.init(service: $0)] } ?? [])
                    + (dsuServer.map { [.init(service: $0)] } ?? []),
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        do {
            try await services.run()
        } catch {
            hub.finish()
            try? await group.shutdownGracefully()
            throw error
        }
        hub.finish()
        try await group.shutdownGracefully()
    }

    /// The calibration for `source` as configured: a source whose kind says it needs none (a replayed log is already
    /// in the device frame) gets only a file named with `--calibration`; the others get the best match for this
    /// machine and sensor (its name, and its ``MotionSource/calibrationLabel``). Call it again to reload the files.
    package func resolveCalibration(for source: any MotionSource) -> CalibrationLoader.Resolution {
        if let exemption = configuration.source.configuration.calibrationExemption,
            case .automatic = configuration.calibration
        {
            return .init(
                calibration: nil, path: nil,
                explanation: "none: \(exemption); pass --calibration FILE to apply one")
        }
        let sensor = source.sensors.first
        let identity = CalibrationLoader.identity(
            dmiRoot: configuration.dmiRoot, name: sensor?.name, label: source.calibrationLabel)
        return CalibrationLoader.resolve(configuration.calibration, identity: identity)
    }

}
