import TiltCore

/// Something that produces motion samples: an IIO device, an evdev motion sensor, a replayed log.
///
/// The daemon runs a source only while someone watches (sensor on demand): it calls ``run(rate:events:)`` when the
/// first watcher arrives and cancels that task when the last one leaves, and calls it again later. A source keeps
/// whatever it needs between runs (a replay keeps its position).
package protocol MotionSource: Sendable {
    /// What the source reads, for `hello`, `status` and `tilt sensors`.
    var sensors: [SensorDescription] { get }

    /// A short name for the `source` field of frames, e.g. `replay:trial.csv` or `iio:bmi160`.
    var name: String { get }

    /// What was found, in a line for `tiltd --check`: `replay demo.csv.gz: accel, anglvel`, the device of an
    /// evdev node, the DSU server's address.
    var summary: String { get }

    /// The name calibration files may match besides the sensor's (an IIO device's `label`); `nil` when there is none.
    var calibrationLabel: String? { get }

    /// Produces samples until the task is cancelled, the source ends, or it fails.
    ///
    /// - Parameters:
    ///   - rate: The highest rate, in Hz, that any watcher asked for; a source may pick the lowest rate it supports
    ///     that serves it. `nil` means the source's own default.
    ///   - events: Called for every sample and every change of the sensor's state, in order, from one task.
    /// - Throws: ``MotionSourceError`` when the source cannot go on; cancellation ends it without an error.
    func run(rate: Double?, events: @Sendable (MotionSourceEvent) -> Void) async throws
}

extension MotionSource {
    package var calibrationLabel: String? { nil }
}

/// What a kind of motion source reads, as its settings say: a value that opens the source, and that tells whether a
/// reload changed the source (two equal configurations read the same thing).
///
/// Each kind's configuration says once what is particular to it, so the daemon, `tiltd --check` and the calibration
/// handle every source alike: a replay's speed, why a source searches no calibration, the words of its error.
package protocol MotionSourceConfiguration: Sendable, Hashable {
    /// Opens the source: checks that what it names is there (a log's header, a device, an address); reads no samples.
    func open() throws -> any MotionSource

    /// The start of the error when ``open()`` fails, before its reason: `cannot replay`,
    /// `cannot read IIO sensors at local:`.
    var openFailure: String { get }

    /// Why no calibration file is searched for this source (a replayed log is in the device frame already); `nil`:
    /// the best matching file applies. A file named with `--calibration` applies either way.
    var calibrationExemption: String? { get }

    /// How much faster than real time samples come: a replay's speed, 1 for live sensors.
    var speed: Double { get }
}

extension MotionSourceConfiguration {
    package var calibrationExemption: String? { nil }
    package var speed: Double { 1 }

    /// Whether `other` is a configuration of the same kind, equal to this one.
    package func isEqual(to other: any MotionSourceConfiguration) -> Bool {
        (other as? Self) == self
    }
}

/// What a running source reports.
package enum MotionSourceEvent: Sendable, Equatable {
    /// One calibrated-to-SI, mount-corrected sample.
    case sample(MotionSample)
    /// The sensor changed state (active, idle, lost), with a reason a person can read.
    case sensor(SensorState, reason: String)
    /// A sample was rejected (a corrupt log row, a non-finite or saturated reading), with a reason.
    case rejected(reason: String)
    /// The sensor's buffer is held by another program and it is polled instead (`nil`: the buffer is back).
    case busy(SensorBusy?)
    /// Samples are missing before the next one (a replayed log's `# gap` marker, or its time going back): the
    /// filter must not fuse across it as if it were motion.
    case gap(SampleGap)
}

/// A failure of a motion source that stops it: what failed, as its own typed error a caller can switch on.
package struct MotionSourceError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What failed.
    package enum Kind: Sendable, Equatable {
        /// The replayed log (a damaged or truncated log under `--strict`, a read error).
        case log(SensorLogError)
        /// A live source's device or address, permanently, as the source's own typed error (an IIO device's
        /// ``IIOError``, an evdev node's ``EvdevError``, a DSU server's ``DSUAddressError``); a transient loss is
        /// retried, not thrown.
        case device(any Error & CustomStringConvertible & Sendable)

        package static func == (a: Kind, b: Kind) -> Bool {
            switch (a, b) {
            case (.log(let x), .log(let y)): x == y
            case (.device(let x), .device(let y)): type(of: x) == type(of: y) && x.description == y.description
            default: false
            }
        }
    }

    /// What failed.
    package var kind: Kind

    /// A failure of `kind`.
    package init(_ kind: Kind) { self.kind = kind }

    /// What failed, and what to do.
    package var message: String { description }

    package var description: String {
        switch kind {
        case .log(let error): error.description
        case .device(let error): error.description
        }
    }
}
