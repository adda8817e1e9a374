import Logging
import ServiceLifecycle
import Synchronization
import TiltCore
import TiltFusion
import TiltSensors
import TiltWire

/// Runs the motion source while someone watches, fuses its samples, and publishes frames to the hub.
///
/// It follows the hub's demand: the source starts when the first watcher (or poll) arrives, restarts when the
/// highest requested rate changes, and stops when the last watcher leaves, so an unwatched sensor does no work.
final class MotionService: Service {
    let hub: Hub
    let source: any MotionSource
    let logger: Logger
    private let filters: Mutex<Filters>
    /// The attitudes watchers and polls want, as the hub's demand last said (see ``Filters/toRun(_:)``).
    private let wanted = Mutex<Set<AttitudeReference>>([])
    private let rejectedLogged = Atomic<Int>(0)
    /// Kept across restarts of the source: a device that lies flat keeps the orientation it had.
    private let orientation = Mutex(OrientationDetector())

    init(hub: Hub, source: any MotionSource, pipeline: MotionPipeline.Configuration, logger: Logger) {
        self.hub = hub
        self.source = source
        self.logger = logger
        filters = Mutex(Filters(configuration: pipeline, main: hub.mainReference))
    }

    func run() async throws {
        hub.setTareAction { [self] in self.filters.withLock { $0.tare() } }
        hub.setResetTareAction { [self] in self.filters.withLock { $0.resetTare() } }
        var current: Task<Void, Never>?
        var currentRate: Double?
        for await demand in hub.demands.cancelOnGracefulShutdown() {
            wanted.withLock { $0 = demand.attitudes }
            filters.withLock { $0.horizons = demand.horizons }
            if demand.active {
                if current != nil, currentRate == demand.rate { continue }
                if let task = current {
                    task.cancel()
                    await task.value
                }
                currentRate = demand.rate
                current = Task { await self.runSource(rate: demand.rate) }
            } else if let task = current {
                task.cancel()
                await task.value
                current = nil
                currentRate = nil
                filters.withLock { $0.idle() }
                hub.setFilters([])
                logger.info("sensor idle: nobody watches")
            }
        }
        if let task = current {
            task.cancel()
            await task.value
        }
    }

    private func runSource(rate: Double?) async {
        logger.info("sensor starting", metadata: ["rate": "\(rate.map { "\($0)" } ?? "default")"])
        let name = source.name
        do {
            try await source.run(rate: rate) { [self, hub, logger] event in
                switch event {
                case .sample(let sample):
                    // The frame's `mono`: when the sample entered the daemon, for clients to measure latency.
                    let arrived = monotonicSeconds()
                    let wanted = self.wanted.withLock { $0 }
                    let (fused, bias, predicted) = self.filters.withLock { f in
                        var fused = f.process(sample, source: name, wanted: wanted)
                        for i in fused.frames.indices { fused.frames[i].mono = arrived }
                        return (fused, f.gyroBias, fused.frames.map { f.predictions(of: $0) })
                    }
                    if let running = fused.running { hub.setFilters(running) }
                    hub.publishRaw(sample)
                    hub.publishMotion(sample, rotationRate: fused.frames.first?.rotationRate ?? sample.gyro - bias)
                    for (frame, ahead) in zip(fused.frames, predicted) {
                        hub.publish(frame, predicted: ahead, gyroBias: bias)
                    }
                    // Gravity from whichever filter runs, the main one's first.
                    if let main = fused.frames.first {
                        let turned = self.orientation.withLock { d in
                            d.update(gravity: main.gravity, time: main.time)
                                ? WireOrientation(d.orientation, d.tilt) : nil
                        }
                        if let turned { hub.setOrientation(turned) }
                    }
                case .sensor(let state, let reason):
                    logger.info("sensor \(state): \(reason)")
                    hub.setSensorState(state, reason: reason)
                case .busy(let busy):
                    let news = hub.setBusy(busy)
                    if let busy {
                        let text = "sensor busy: \(busy.explanation())"
                        if news { logger.warning("\(text)") } else { logger.debug("\(text)") }
                    } else if news {
                        logger.info("sensor buffer free again: reading the buffer")
                    }
                case .gap(let gap):
                    self.filters.withLock { $0.markGap() }
                    hub.publishGap(gap)
                    logger.info(
                        "gap in the samples: \(gap.count.map { "\($0) samples lost" } ?? gap.reason ?? "marked")")
                case .rejected(let reason):
                    hub.reject(reason: reason)
                    let n = self.rejectedLogged.add(1, ordering: .relaxed).newValue
                    if SkippedRows.isReported(n) {
                        logger.warning("skipped: \(reason)", metadata: ["rejected": "\(n)"])
                    }
                }
            }
            if !Task.isCancelled { logger.info("source ended") }
        } catch is CancellationError {
        } catch {
            logger.error("sensor failed: \(error)")
            hub.setSensorState(.lost, reason: "\(error)")
        }
        hub.setBusy(nil, announce: false)
        if Task.isCancelled { hub.setSensorState(.idle, reason: "nobody watches") }
    }
}
