import TiltCore
import TiltSensors

#if canImport(Glibc)
    import Glibc
#endif

/// Live motion from a Linux evdev motion-sensor node through libevdev: a game controller's "… Motion Sensors" device
/// (hid-playstation, hid-sony, hid-nintendo, hid-steam) or a laptop's lis3lv02d accelerometer (issue 31).
///
/// `ABS_X/Y/Z` acceleration and `ABS_RX/RY/RZ` angular rate, scaled by each axis's resolution and timed by the
/// device's `MSC_TIMESTAMP` (``EvdevMotionDecoder``), turned into the device frame by ``EvdevMount``. Sensor on
/// demand: nothing is open between runs; ``run(rate:events:)`` opens the node (for ``Configuration/path`` `nil`: the
/// first motion sensor found, again at each start) and closes it on cancellation within one poll slice. A device that
/// goes away (unplugged) is reported as `lost` and searched for again with backoff; when it is back the source reports
/// `active` and goes on.
package struct EvdevMotionSource: MotionSource {
    /// What to read and how.
    package struct Configuration: Sendable, Hashable {
        /// The event node (`/dev/input/eventN`, or a stable link to one in `/dev/input/by-id/`); `nil`: the first
        /// motion sensor ``discovery`` finds.
        package var path: String?
        /// Where to look for motion sensors.
        package var discovery: EvdevDiscovery
        /// The wait before looking for a lost device again: from 0.1 s, doubling up to 2 s.
        package var backoff: Backoff
        /// How long one wait for events may block before cancellation is checked, in milliseconds.
        package var pollSliceMilliseconds: Int32

        package init(
            path: String? = nil, discovery: EvdevDiscovery = .init(),
            backoff: Backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(2)),
            pollSliceMilliseconds: Int32 = 50
        ) {
            self.path = path
            self.discovery = discovery
            self.backoff = backoff
            self.pollSliceMilliseconds = pollSliceMilliseconds
        }
    }

    package let configuration: Configuration
    /// The device found when the source was made, as sysfs describes it.
    package let device: EvdevDeviceInfo
    package let sensors: [SensorDescription]
    package let name: String

    /// Finds the device and checks it can be read; keeps nothing open.
    ///
    /// - Throws: ``EvdevError``: no motion sensor found (`path` `nil`), the path missing or not a motion sensor, or the
    ///   node not readable (`EACCES`: a udev rule or the `input` group is needed).
    package init(configuration: Configuration = .init()) throws(EvdevError) {
        self.configuration = configuration
        let device =
            if let path = configuration.path {
                try configuration.discovery.describe(path: path)
            } else {
                try configuration.discovery.first()
            }
        // Opening tells a permission problem now rather than at the first watcher; plain open(2), not libevdev, so a
        // node libevdev cannot read is told when it is read.
        let fd = open(device.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw EvdevReader.openError(path: device.path, errno: errno) }
        close(fd)
        self.device = device
        name = "evdev:\(device.name)"
        sensors = [
            SensorDescription(name: device.name, kinds: device.kinds, location: device.path, rateHz: nil, mode: "evdev")
        ]
    }

    package var summary: String {
        let found = configuration.path == nil ? "the first motion sensor found (auto), now " : ""
        let kinds = sensors.flatMap(\.kinds).map(\.rawValue).joined(separator: ", ")
        let mount = EvdevMount(hasGyroscope: device.hasGyroscope).rawValue
        return "evdev \(found)\(device.path): \(device.name) (\(kinds); \(mount) mount)"
    }

    /// Reads the node at `path`, or the first motion sensor found when `path` is `nil`, with default settings.
    package init(path: String?) throws(EvdevError) {
        try self.init(configuration: Configuration(path: path))
    }

    /// The node to open now: the configured path, or the first motion sensor (the one found before, by name, if it is
    /// still there).
    private func currentPath() throws(EvdevError) -> String {
        if let path = configuration.path { return path }
        return try configuration.discovery.first(preferring: device.name).path
    }

    package func run(rate: Double?, events: @Sendable (MotionSourceEvent) -> Void) async throws {
        var backoff = configuration.backoff
        var lost = false
        while !Task.isCancelled {
            let reader: EvdevReader
            do {
                reader = try EvdevReader(path: try currentPath())
            } catch {
                guard error.isTransient else { throw MotionSourceError(.device(error)) }
                if !lost {
                    lost = true
                    events(.sensor(.lost, reason: error.description))
                }
                do { try await Task.sleep(for: backoff.next()) } catch { return }
                continue
            }
            backoff.reset()
            lost = false
            let axes = reader.resolutions.gyro == nil ? "accelerometer" : "accelerometer and gyroscope"
            events(.sensor(.active, reason: "\(reader.path) (\(reader.name)): \(axes), \(reader.mount.rawValue) mount"))
            do {
                try await capture(reader, events: events)
            } catch let error as EvdevError where error.isTransient {
                reader.close()
                lost = true
                events(.sensor(.lost, reason: error.description))
                do { try await Task.sleep(for: backoff.next()) } catch { return }
                continue
            } catch is CancellationError {
                reader.close()
                return
            } catch let error as EvdevError {
                reader.close()
                throw MotionSourceError(.device(error))
            }
            reader.close()
            return
        }
    }

    /// Reads on a thread of its own until cancelled (throws `CancellationError`) or the reader fails.
    private func capture(_ reader: EvdevReader, events: @Sendable (MotionSourceEvent) -> Void) async throws {
        let box = CaptureBox(value: reader)
        let slice = configuration.pollSliceMilliseconds
        let thread = CaptureThread<[(MotionSample, afterGap: Bool)], EvdevError>(name: "tilt-evdev") {
            () throws(EvdevError) in
            if case .samples(let samples) = try box.value.step(timeoutMs: slice) { return samples }
            return nil
        }
        var order = SampleOrder()
        try await thread.drain { samples in
            for (sample, afterGap) in samples {
                if afterGap { events(.gap(SampleGap(reason: "the kernel dropped events (SYN_DROPPED)"))) }
                guard sample.accel.isFinite, sample.gyro.isFinite else {
                    events(.rejected(reason: "\(reader.path): non-finite reading"))
                    continue
                }
                if let refused = order.admit(sample) {
                    events(.rejected(reason: refused))
                } else {
                    events(.sample(sample))
                }
            }
        }
    }
}

extension EvdevMotionSource.Configuration: MotionSourceConfiguration {
    package func open() throws -> any MotionSource { try EvdevMotionSource(configuration: self) }
    package var openFailure: String { "cannot read an evdev motion sensor" }
}
