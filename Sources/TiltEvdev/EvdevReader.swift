import CLibEvdev
import TiltCore
import TiltSensors

#if canImport(Glibc)
    import Glibc
#endif

/// One open evdev motion-sensor node read through libevdev (Linux only): the device's axes and resolutions, its
/// events on `CLOCK_MONOTONIC`, and the resync after `SYN_DROPPED`, decoded by ``EvdevMotionDecoder`` and turned into
/// the device frame by ``EvdevMount``.
///
/// Not `Sendable`: it owns the file descriptor and the libevdev handle and is used by one thread at a time. Closing
/// (``close()`` or deinit) is all a stop needs: an evdev node has nothing to switch off.
final class EvdevReader {
    /// What one step read.
    enum Step {
        /// Samples (each after a gap when events were lost before it).
        case samples([(MotionSample, afterGap: Bool)])
        case idle
    }

    let path: String
    let name: String
    let resolutions: EvdevMotionDecoder.Resolutions
    let mount: EvdevMount
    private let fd: Int32
    private var device: OpaquePointer?
    private var decoder: EvdevMotionDecoder

    /// Opens `path` read-only and checks that it is a motion sensor.
    ///
    /// - Throws: ``EvdevError``: `missing` (ENOENT), `permission` (EACCES), `deviceLost` (ENODEV), `notMotionSensor`
    ///   (no `INPUT_PROP_ACCELEROMETER` or no `ABS_X…Z`), `io` otherwise (e.g. not an evdev node at all).
    init(path: String) throws(EvdevError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Self.openError(path: path, errno: errno) }
        var device: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &device)
        guard rc == 0, let device else {
            Glibc.close(fd)
            let e = -rc
            throw e == ENODEV
                ? .deviceLost(path: path, errno: e) : .io(path: path, what: "read the evdev node", errno: e)
        }
        self.fd = fd
        self.device = device
        name = libevdev_get_name(device).map { String(cString: $0) } ?? ""
        func has(_ code: Int32) -> Bool { libevdev_has_event_code(device, UInt32(EV_ABS), UInt32(code)) == 1 }
        let accelCodes = [ABS_X, ABS_Y, ABS_Z]
        let gyroCodes = [ABS_RX, ABS_RY, ABS_RZ]
        let isAccelerometer = libevdev_has_property(device, UInt32(INPUT_PROP_ACCELEROMETER)) == 1
        guard isAccelerometer, accelCodes.allSatisfy(has) else {
            libevdev_free(device)
            Glibc.close(fd)
            throw .notMotionSensor(
                path: path, name: name,
                why: isAccelerometer
                    ? "it has no ABS_X, ABS_Y and ABS_Z accelerometer axes"
                    : "it lacks INPUT_PROP_ACCELEROMETER (it is a gamepad, keyboard, mouse, …)")
        }
        func resolution(_ code: Int32) -> Int32 { libevdev_get_abs_resolution(device, UInt32(code)) }
        let hasGyro = gyroCodes.allSatisfy(has)
        resolutions = .init(accel: accelCodes.map(resolution), gyro: hasGyro ? gyroCodes.map(resolution) : nil)
        mount = EvdevMount(hasGyroscope: hasGyro)
        decoder = EvdevMotionDecoder(resolutions: resolutions)
        // Event times on the monotonic clock, as every other sample time in tilt (the default is CLOCK_REALTIME).
        _ = libevdev_set_clock_id(device, CLOCK_MONOTONIC)
        decoder.resync(values: currentValues())
    }

    deinit { close() }

    /// Frees the libevdev handle and closes the node.
    func close() {
        guard let device else { return }
        libevdev_free(device)
        Glibc.close(fd)
        self.device = nil
    }

    /// The error for a failed `open(2)` of `path`.
    static func openError(path: String, errno e: Int32) -> EvdevError {
        switch e {
        case ENOENT: .missing(path: path)
        case EACCES, EPERM: .permission(path: path, errno: e)
        case ENODEV, ENXIO: .deviceLost(path: path, errno: e)
        default: .io(path: path, what: "open", errno: e)
        }
    }

    /// The axes' current values, `ABS_X` … `ABS_RZ` (libevdev's state, which it keeps current through a resync).
    private func currentValues() -> [Int32] {
        guard let device else { return [] }
        return (0..<6).map { libevdev_get_event_value(device, UInt32(EV_ABS), UInt32($0)) }
    }

    /// Waits at most `timeoutMs` for events and decodes what arrived.
    ///
    /// - Throws: ``EvdevError`` `deviceLost` when the device went away (unplugged), `io` for another read failure.
    func step(timeoutMs: Int32) throws(EvdevError) -> Step {
        guard let device else { return .idle }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, timeoutMs)
        if ready < 0 {
            if errno == EINTR { return .idle }
            throw .io(path: path, what: "wait for events from", errno: errno)
        }
        if ready == 0 { return .idle }
        if pfd.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0, pfd.revents & Int16(POLLIN) == 0 {
            throw .deviceLost(path: path, errno: ENODEV)
        }
        var samples: [(MotionSample, afterGap: Bool)] = []
        var event = input_event()
        while true {
            let rc = libevdev_next_event(device, LIBEVDEV_READ_FLAG_NORMAL.rawValue, &event)
            if rc == -EAGAIN { break }
            if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                // SYN_DROPPED: the kernel's buffer overflowed. libevdev has read the device's state again; take its
                // sync events through to the end, then hand the decoder the axes' values and go on.
                _ = decoder.feed(Self.inputEvent(event))
                while libevdev_next_event(device, LIBEVDEV_READ_FLAG_SYNC.rawValue, &event)
                    == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue)
                {}
                // The report the drop cut is over: nothing more of it will come.
                _ = decoder.feed(
                    InputEvent(time: 0, type: InputEvent.synchronization, code: InputEvent.report, value: 0))
                decoder.resync(values: currentValues())
                continue
            }
            if rc < 0 {
                let e = -rc
                throw e == ENODEV ? .deviceLost(path: path, errno: e) : .io(path: path, what: "read", errno: e)
            }
            if case .sample(let sample, let afterGap) = decoder.feed(Self.inputEvent(event)) {
                var turned = sample
                turned.accel = mount.matrix.apply(sample.accel)
                turned.gyro = mount.matrix.apply(sample.gyro)
                samples.append((turned, afterGap))
            }
        }
        return samples.isEmpty ? .idle : .samples(samples)
    }

    /// Reads for up to `seconds` and returns the device's report rate in Hz, from its own timestamps (`nil` when it
    /// sent fewer than three reports: an accelerometer that reports only changes, lying still).
    func measureRate(seconds: Double) -> Double? {
        let deadline = monotonicSeconds() + seconds
        var times: [Double] = []
        while monotonicSeconds() < deadline {
            let left = Int32(max(1, (deadline - monotonicSeconds()) * 1000))
            do {
                if case .samples(let samples) = try step(timeoutMs: left) { times += samples.map(\.0.time) }
            } catch {
                break
            }
        }
        guard times.count >= 3, let first = times.first, let last = times.last, last > first else { return nil }
        return Double(times.count - 1) / (last - first)
    }

    static func inputEvent(_ e: input_event) -> InputEvent {
        InputEvent(
            time: Double(e.time.tv_sec) + Double(e.time.tv_usec) * 1e-6, type: e.type, code: e.code, value: e.value)
    }
}
