import TiltCore
import TiltSensors

/// Live motion from Linux IIO sensors through libiio: the accelerometer (the `accel-display` one on convertibles),
/// the gyroscope and the magnetometer where present, merged into ``MotionSample``s on the accelerometer's clock
/// (its IIO timestamp channel, else `CLOCK_MONOTONIC`).
///
/// Sensor on demand: nothing is opened between runs. ``run(rate:events:)`` opens the context, enables the buffer
/// (or starts polling `_raw` attributes), and on cancellation destroys the buffer, which writes `0` to
/// `buffer/enable`, within one poll interval. A device that vanishes is reported as `lost` and searched for again
/// with exponential backoff; when it returns the source reports `active` and goes on.
package struct IIOMotionSource: MotionSource {
    /// How to find and read the sensors.
    package struct Configuration: Sendable, Hashable {
        /// The libiio context URI: `local:` or `ip:HOST`.
        package var uri: String
        /// The wait before looking for a lost device again: from 0.1 s, doubling up to 2 s.
        package var backoff: Backoff
        /// How long one wait for buffered data may block before cancellation is checked, in milliseconds.
        package var pollSliceMilliseconds: Int32
        /// The wait before trying a busy buffer again (another program reads it): from 2 s, doubling up to 30 s.
        /// Trying costs one `open()`, so a few seconds is cheap.
        package var busyRetry: Backoff

        package init(
            uri: String = "local:", backoff: Backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(2)),
            pollSliceMilliseconds: Int32 = 50, busyRetry: Backoff = Backoff(initial: .seconds(2), maximum: .seconds(30))
        ) {
            self.uri = uri
            self.backoff = backoff
            self.pollSliceMilliseconds = pollSliceMilliseconds
            self.busyRetry = busyRetry
        }
    }

    package let configuration: Configuration
    package let sensors: [SensorDescription]
    package let name: String
    /// The `label` of the main device (e.g. `accel-display`), which calibration files may match.
    package let label: String?

    /// Finds the sensors at `configuration.uri` and describes them; opens nothing for capture yet.
    ///
    /// - Throws: ``IIOError`` when the context cannot be opened or holds no accelerometer.
    package init(configuration: Configuration = .init()) throws(IIOError) {
        self.configuration = configuration
        let reports = try IIOContextScanner.scan(uri: configuration.uri)
        let used = reports.filter(\.used)
        guard let main = used.first else { throw IIOError.noSensors(uri: configuration.uri) }
        sensors = used.map {
            SensorDescription(name: $0.name, kinds: $0.kinds, location: $0.id, rateHz: $0.rateHz, mode: $0.mode)
        }
        name = "iio:\(main.name)"
        label = main.label
    }

    package var summary: String { "IIO at \(configuration.uri): \(sensors.map(\.name).joined(separator: ", "))" }
    package var calibrationLabel: String? { label }

    /// Reads the sensors at a libiio URI (`local:` or `ip:HOST`) with default settings.
    package init(uri: String) throws(IIOError) {
        try self.init(configuration: Configuration(uri: uri))
    }

    package func run(rate: Double?, events: @Sendable (MotionSourceEvent) -> Void) async throws {
        var backoff = configuration.backoff
        var lostReason: String?
        while !Task.isCancelled {
            let session: IIOCaptureSession
            do {
                session = try IIOCaptureSession(context: try IIOContext(uri: configuration.uri), wantedRate: rate)
            } catch {
                guard error.isTransient else { throw MotionSourceError(.device(error)) }
                if lostReason == nil {
                    lostReason = error.description
                    events(.sensor(.lost, reason: error.description))
                }
                do { try await Task.sleep(for: backoff.next()) } catch { return }
                continue
            }
            backoff.reset()
            lostReason = nil
            let mode = session.readsBuffer ? "buffered" : "polled"
            let rate = session.readsBuffer ? session.rateHz : session.polledRateHz
            events(.sensor(.active, reason: "\(session.plan.accel.name) \(mode) at \(rate) Hz"))
            do {
                try await capture(session, events: events)
                session.stop()
                return
            } catch let error as IIOError where error.isTransient {
                session.stop()
                lostReason = error.description
                events(.sensor(.lost, reason: error.description))
                do { try await Task.sleep(for: backoff.current) } catch { return }
            } catch is CancellationError {
                session.stop()
                return
            } catch let error as IIOError {
                session.stop()
                throw MotionSourceError(.device(error))
            }
        }
    }

    /// Reads until cancelled: buffered sessions on their own thread (``IIOCaptureThread``), polled ones paced here.
    /// A buffered device whose buffer another program holds is polled, and its buffer tried again with backoff.
    private func capture(_ session: IIOCaptureSession, events: @Sendable (MotionSourceEvent) -> Void) async throws {
        var order = SampleOrder()
        func deliver(_ step: IIOCaptureSession.Step) {
            if case .samples(let samples, let rejected) = step {
                rejected.forEach { events(.rejected(reason: $0)) }
                for sample in samples {
                    if let refused = order.admit(sample) {
                        events(.rejected(reason: refused))
                    } else {
                        events(.sample(sample))
                    }
                }
            }
        }
        var retry = BusyRetry(configuration.busyRetry)
        if session.buffered, !session.readsBuffer { events(.busy(session.busyNote(retryAt: retry.retryAt))) }
        // Polled reads, paced here, until the buffer is ours (a polled device never gets one: until cancelled).
        let period = Duration.seconds(1 / max(session.polledRateHz, 0.1))
        let clock = ContinuousClock()
        var next = clock.now
        while !session.readsBuffer {
            try Task.checkCancellation()
            deliver(try session.step(timeoutMs: 0))
            if session.buffered, retry.isDue {
                if try session.startBufferUnlessBusy() {
                    events(.busy(nil))
                } else {
                    retry.back()
                    events(.busy(session.busyNote(retryAt: retry.retryAt)))
                }
            }
            next = next.advanced(by: period)
            if next < clock.now { next = clock.now }
            try await Task.sleep(until: next, clock: clock)
        }
        try await captureBuffer(session, deliver: deliver)
    }

    /// Reads the session's buffer on a thread of its own until cancelled (throws `CancellationError`) or it fails.
    private func captureBuffer(
        _ session: IIOCaptureSession, deliver: (IIOCaptureSession.Step) -> Void
    ) async throws {
        let box = CaptureBox(value: session)
        let slice = configuration.pollSliceMilliseconds
        let thread = CaptureThread<IIOCaptureSession.Step, IIOError>(name: "tilt-iio-capture") { () throws(IIOError) in
            let step = try box.value.step(timeoutMs: slice)
            if case .samples = step { return step }
            return nil
        }
        try await thread.drain(deliver)
    }
}

extension IIOMotionSource.Configuration: MotionSourceConfiguration {
    package func open() throws -> any MotionSource { try IIOMotionSource(configuration: self) }
    package var openFailure: String { "cannot read IIO sensors at \(uri)" }
}
