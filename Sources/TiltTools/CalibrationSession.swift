import FoundationEssentials
import TiltCore
import TiltSensors

/// What `tilt calibrate gyro|accel|mag` measure: the samples collected from a ``CalibrationSampleFeed`` (all of a
/// log, or live from tiltd with prompts and progress on a ``CalibrationConsole``) and the fit made of them, with the
/// summary that goes into the file's comment.
package struct CalibrationSession: Sendable {
    /// Where the samples come from.
    package let feed: CalibrationSampleFeed
    /// Where prompts and progress go, and answers come from.
    package let console: CalibrationConsole
    /// How often a live collection looks at the stream.
    package var pollInterval: Duration

    /// A session on `feed`, talking through `console`.
    package init(feed: CalibrationSampleFeed, console: CalibrationConsole = .standard) {
        self.feed = feed
        self.console = console
        pollInterval = .milliseconds(200)
    }

    /// A measured gyroscope bias.
    package struct GyroResult: Sendable {
        /// The bias, rad/s.
        package var bias: Vector3
        /// Sample count and movement, for the file's comment and the printed line.
        package var summary: String
    }

    /// A measured accelerometer correction.
    package struct AccelResult: Sendable {
        /// Offset and matrix.
        package var fit: PositionFinder.Fit
        /// The positions and the largest residual.
        package var summary: String
    }

    /// A measured magnetometer correction.
    package struct MagResult: Sendable {
        /// The hard iron, µT.
        package var hardIron: Vector3
        /// The soft iron.
        package var softIron: Matrix3
        /// The readings, the directions they cover and the field strength.
        package var summary: String
    }

    // MARK: Gyroscope

    /// The gyroscope bias from `duration` seconds held still: the first `duration` seconds of a log, or as many
    /// collected live.
    ///
    /// - Throws: ``CalibrateError`` when the log is too short; ``CalibrationFitError`` when the device moved.
    package func gyro(duration: Double, limits: CalibrationFit.StillnessLimits) async throws -> GyroResult {
        let samples = try await stillSamples(duration: duration)
        let (bias, stats) = try CalibrationFit.gyroBias(samples, limits: limits)
        let summary = String(
            printf: "%d samples; gyro std %.4f rad/s, accel magnitude std %.4f m/s²", stats.count, stats.gyroStd,
            stats.accelMagnitudeStd)
        return GyroResult(bias: bias, summary: summary)
    }

    /// `duration` seconds of samples: the start of a log, or collected live with a progress line.
    package func stillSamples(duration: Double) async throws -> [MotionSample] {
        switch feed.source {
        case .log(let all):
            guard let start = all.first?.time else { throw CalibrateError(.input, "the log holds no samples") }
            let samples = all.filter { $0.time - start <= duration }
            let span = (samples.last?.time ?? start) - start
            guard span >= duration * 0.9 else {
                throw CalibrateError(
                    .input,
                    "the log holds only \(String(printf: "%.1f", span)) s; need \(duration) s "
                        + "(or pass a smaller --duration)")
            }
            return samples
        case .daemon(let stream):
            console.say("hold the device still (on a table) for \(Self.seconds(duration)) s…")
            var line = console.progressLine()
            stream.restart()
            let samples = try await stream.collectSpan(seconds: duration) { span, count in
                line.show("gyro: \(Self.seconds(max(duration - span, 0))) s left, \(count) samples")
            }
            line.finish()
            return samples
        }
    }

    // MARK: Accelerometer

    /// The accelerometer's offset and matrix from six still positions of `seconds` each: found in a log, asked
    /// for one by one (`automatic` false: the person presses Enter), or taken as they come (`automatic`, giving
    /// up after `timeout` seconds).
    ///
    /// - Throws: ``CalibrateError`` when the input ends or the time runs out; ``CalibrationFitError`` when the
    ///   positions do not fit.
    package func accel(seconds: Double, automatic: Bool, timeout: Double) async throws -> AccelResult {
        let finder = try await positions(seconds: seconds, automatic: automatic, timeout: timeout)
        let fit = try finder.fit()
        let summary = String(
            printf: "six positions of %.1f s; largest residual %.4f m/s²", seconds, fit.largestResidual)
        return AccelResult(fit: fit, summary: summary)
    }

    /// The six positions (see ``accel(seconds:automatic:timeout:)``); the finder may be incomplete for a log.
    package func positions(seconds: Double, automatic: Bool, timeout: Double) async throws -> PositionFinder {
        var finder = PositionFinder(seconds: seconds)
        switch feed.source {
        case .log(let all):
            for sample in all { _ = finder.add(sample) }
        case .daemon(let stream) where automatic:
            try await collectAutomatically(stream, &finder, timeout: timeout)
        case .daemon(let stream):
            try await collectInteractively(stream, &finder)
        }
        return finder
    }

    private func collectInteractively(_ feed: any CalibrationSampleStream, _ finder: inout PositionFinder)
        async throws
    {
        let seconds = finder.seconds
        while let face = finder.missing.first {
            let done = finder.positions.count
            console.say("position \(done + 1)/6: \(face.instruction), then press Enter")
            guard await console.readLine() != nil else {
                throw CalibrateError(
                    .incomplete,
                    "standard input ended before all six positions were done (use --auto without a terminal)")
            }
            var line = console.progressLine()
            feed.restart()
            let samples = try await feed.collectSpan(seconds: seconds) { span, _ in
                line.show("collecting: \(Self.seconds(max(seconds - span, 0))) s left, \(done) of 6 positions done")
            }
            line.finish()
            switch finder.accept(samples) {
            case .accepted(let got):
                console.say("got \(got)\(got == face ? "" : " (not the one asked, but new)")")
            case .refused(let why):
                console.say("refused: \(why); try again")
            }
        }
    }

    private func collectAutomatically(
        _ feed: any CalibrationSampleStream, _ finder: inout PositionFinder, timeout: Double
    ) async throws {
        let started = ContinuousClock.now
        var line = console.progressLine()
        var taken = 0
        feed.restart()
        while !finder.isComplete {
            guard ContinuousClock.now - started < .seconds(timeout) else {
                line.finish()
                throw CalibrateError(
                    .incomplete, "gave up after \(Int(timeout)) s with \(finder.positions.count) of 6 positions")
            }
            let samples = try feed.snapshot()
            for sample in samples.dropFirst(taken) {
                if let face = finder.add(sample) {
                    line.finish()
                    console.say("got \(face)")
                }
            }
            taken = samples.count
            line.show(
                "\(finder.positions.count) of 6 positions done; next: \(finder.missing.first?.instruction ?? "-"), "
                    + "hold still")
            try await Task.sleep(for: pollInterval)
        }
        line.finish()
    }

    // MARK: Magnetometer

    /// Hard and soft iron from readings in every direction: all of a log's, or collected live until all 26
    /// directions are seen or `duration` seconds have passed. At least `minCoverage` of the directions must be
    /// covered.
    ///
    /// - Throws: ``CalibrateError`` when there are no readings or too few directions; ``CalibrationFitError``
    ///   when they do not fit an ellipsoid.
    package func mag(duration: Double, minCoverage: Double) async throws -> MagResult {
        let points: [Vector3]
        switch feed.source {
        case .log(let all):
            points = all.compactMap(\.mag)
        case .daemon(let stream):
            console.say("turn the device slowly in every direction…")
            points = try await magnetometerReadings(stream, duration: duration)
        }
        guard !points.isEmpty else {
            throw CalibrateError(
                .coverage, "no magnetometer readings (the sensor has none, or tiltd runs with --no-mag)")
        }
        let fit = try CalibrationFit.ellipsoid(points)
        let (covered, enough) = FieldCoverage.check(points, centre: fit.hardIron, minimumShare: minCoverage)
        guard enough else {
            throw CalibrateError(
                .coverage,
                "the readings cover only \(covered) of 26 directions; turn the device in every direction "
                    + "and run again")
        }
        let summary = String(
            printf: "%d readings covering %d of 26 directions; field %.1f µT", points.count, covered,
            fit.fieldStrength)
        return MagResult(hardIron: fit.hardIron, softIron: fit.softIron, summary: summary)
    }

    /// The magnetometer readings of `feed` until all 26 directions are seen or `duration` seconds have passed.
    package func magnetometerReadings(_ feed: any CalibrationSampleStream, duration: Double) async throws -> [Vector3] {
        feed.restart()
        let started = ContinuousClock.now
        var line = console.progressLine()
        var covered = 0
        defer { line.finish() }
        while true {
            let points = try feed.snapshot().compactMap(\.mag)
            // The bounding-box centre moves as readings arrive; show the best count so far.
            covered = max(covered, FieldCoverage.directionsSeen(points))
            let elapsed = (ContinuousClock.now - started) / .seconds(1)
            line.show("magn: \(covered) of 26 directions, \(Self.seconds(max(duration - elapsed, 0))) s left")
            if covered == 26 || elapsed >= duration { return points }
            try await Task.sleep(for: pollInterval * 5 / 4)
        }
    }

    /// Seconds with one decimal.
    static func seconds(_ s: Double) -> String {
        String(printf: "%.1f", s)
    }
}
