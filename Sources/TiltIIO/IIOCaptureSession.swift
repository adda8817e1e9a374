import CLibIIO
import TiltCore
import TiltSensors

#if canImport(Glibc)
    import Glibc
#endif

/// One run of capture from an open context (Linux only): configures the devices of an ``IIOSensorPlan``, enables
/// the accelerometer's buffer (or polls its `_raw` attributes), and turns what it reads into ``MotionSample``s.
///
/// Not `Sendable`: it owns libiio objects and lives inside one task. ``stop()`` (or deinit) destroys the buffer,
/// which makes libiio write `0` to `buffer/enable`.
final class IIOCaptureSession {
    /// One kind's three axes with what turns raw counts into SI units in the device frame.
    struct Axes {
        var channels: [IIOChannelHandle]
        var scale: [Double]
        var offset: [Double]
        var formats: [IIOScanFormat?]
        var matrix: IIOMountMatrix
        /// Extra factor to SI (Gauss → µT for magnetometers).
        var unit: Double

        init(device: IIODeviceHandle, kind: String) {
            channels = device.axes(kind) ?? []
            scale = channels.map { $0.number("scale") ?? 1 }
            offset = channels.map { $0.number("offset") ?? 0 }
            formats = channels.map { $0.isScanElement ? $0.format : nil }
            matrix = IIOSensorPlan.mountMatrix(for: device, kind: kind).0
            unit = kind == "magn" ? 100 : 1
        }

        func convert(_ raw: [Int64]) -> Vector3 {
            let v = (0..<3).map { (Double(raw[$0]) + offset[$0]) * scale[$0] * unit }
            return matrix.apply(Vector3(v[0], v[1], v[2]))
        }

        func saturated(_ raw: [Int64]) -> Bool {
            (0..<3).contains { formats[$0]?.isSaturated(raw[$0]) ?? false }
        }

        /// Reads `_raw` attributes.
        func poll() -> Result<[Int64], IIOErrno> {
            var out: [Int64] = []
            for c in channels {
                switch c.read("raw") {
                case .success(let text):
                    // A few drivers print decimals; a non-number (or NaN) reads as an I/O error.
                    let decimal = Double(text).flatMap { $0.isFinite ? Int64(exactly: $0.rounded()) : nil }
                    guard let v = Int64(text) ?? decimal else { return .failure(IIOErrno(EINVAL)) }
                    out.append(v)
                case .failure(let e): return .failure(e)
                }
            }
            return .success(out)
        }
    }

    /// What a step of capture produced.
    enum Step {
        case samples([MotionSample], rejected: [String])
        case idle
    }

    let context: IIOContext
    let plan: IIOSensorPlan
    let accel: Axes
    let gyro: Axes?
    let magn: Axes?
    /// Whether gyro axes come in the accelerometer's buffer.
    let gyroInBuffer: Bool
    let rateHz: Double
    let buffered: Bool
    private var buffer: OpaquePointer?
    private var timestamp: IIOChannelHandle?
    private var lastGyro = Vector3(0, 0, 0)
    private var lastMagn: Vector3?
    private var lastSideRead = -Double.infinity
    private var quietSince: Double

    /// Configures the plan's devices and, for a buffered accelerometer, enables its buffer.
    ///
    /// - Parameter wantedRate: The rate watchers asked for; the lowest available rate that serves it is set.
    init(context: IIOContext, wantedRate: Double?) throws(IIOError) {
        self.context = context
        plan = try IIOSensorPlan(context: context)
        let dev = plan.accel
        accel = Axes(device: dev, kind: "accel")
        gyro = plan.gyro.map { Axes(device: $0, kind: "anglvel") }
        magn = plan.magn.map { Axes(device: $0, kind: "magn") }
        buffered = IIOSensorPlan.isBuffered(dev, kind: "accel")
        gyroInBuffer =
            buffered && plan.gyro?.pointer == dev.pointer && (gyro?.channels.allSatisfy(\.isScanElement) ?? false)

        let available = IIOSensorPlan.availableRates(dev, kind: "accel")
        // Some drivers report 0 Hz while idle (hid-sensor); poll those at 50 Hz unless asked otherwise.
        var rate = IIOSensorPlan.rate(dev, kind: "accel").flatMap { $0 > 0 ? $0 : nil } ?? 50
        if let wantedRate, let pick = IIOSensorPlan.pickRate(available: available, wanted: wantedRate), pick != rate {
            // Integral rates are written without a fraction: some drivers parse the value with kstrtoint.
            let text = pick == pick.rounded() && abs(pick) < 1e9 ? String(Int(pick)) : String(pick)
            if let chn = accel.channels.first, iio_channel_find_attr(chn.pointer, "sampling_frequency") != nil {
                _ = iio_channel_attr_write(chn.pointer, "sampling_frequency", text)
            } else {
                dev.write("sampling_frequency", text)
            }
            rate = pick
        } else if let wantedRate, available.isEmpty, !buffered {
            rate = min(max(wantedRate, 1), 200)
        }
        rateHz = rate
        quietSince = monotonicSeconds()
        if buffered { _ = try startBufferUnlessBusy() }
    }

    /// The most a busy buffered device is polled at: each sample costs three sysfs reads (a syscall and a driver
    /// call each), which drivers serve at a few hundred per second at best.
    static let maximumPolledRate = 100.0

    /// The rate ``step(timeoutMs:)`` is paced at while the buffer is not read: ``rateHz`` capped at
    /// ``maximumPolledRate`` for a device whose buffer is busy.
    var polledRateHz: Double { buffered ? min(rateHz, Self.maximumPolledRate) : rateHz }

    /// Whether the buffer is enabled and read (otherwise `_raw` attributes are polled).
    var readsBuffer: Bool { buffer != nil }

    /// Enables the buffer; `false` when another program holds it (`EBUSY`), and the session polls meanwhile.
    ///
    /// - Throws: ``IIOError`` for any other failure.
    func startBufferUnlessBusy() throws(IIOError) -> Bool {
        do throws(IIOError) {
            try startBuffer()
            return true
        } catch {
            if error.isBusy { return false }
            throw error
        }
    }

    deinit { stop() }

    private func startBuffer() throws(IIOError) {
        let dev = plan.accel
        if dev.currentTrigger == nil, let trig = IIOSensorPlan.pickTrigger(for: dev, in: context) {
            _ = iio_device_set_trigger(dev.pointer, trig.pointer)
        }
        for i in 0..<iio_device_get_channels_count(dev.pointer) {
            if let c = iio_device_get_channel(dev.pointer, i) { iio_channel_disable(c) }
        }
        accel.channels.forEach { iio_channel_enable($0.pointer) }
        if gyroInBuffer { gyro?.channels.forEach { iio_channel_enable($0.pointer) } }
        timestamp = dev.timestampChannel.flatMap { $0.isScanElement ? $0 : nil }
        // IIO timestamps default to CLOCK_REALTIME; ask for the monotonic clock so time never jumps.
        if timestamp != nil, dev.attr("current_timestamp_clock") != nil {
            dev.write("current_timestamp_clock", "monotonic")
        }
        if let timestamp { iio_channel_enable(timestamp.pointer) }
        guard let buf = iio_device_create_buffer(dev.pointer, 1, false) else {
            let e = errno
            if IIOErrno(e).meansBusy { throw IIOError.busy(device: dev.id) }
            if IIOErrno(e).meansGone { throw IIOError.deviceLost(device: dev.id, errno: e) }
            throw IIOError.io(device: dev.id, what: "enable the buffer", errno: e)
        }
        _ = iio_buffer_set_blocking_mode(buf, false)
        buffer = buf
    }

    /// Disables the buffer (libiio writes `buffer/enable` = 0) and stops reading.
    func stop() {
        if let buffer { iio_buffer_destroy(buffer) }
        buffer = nil
    }

    /// The device's character device, `/dev/iio:deviceN`.
    var node: String { "/dev/\(plan.accel.id)" }

    /// What to report while the buffer is busy: the device, its node, who holds it (if it can be told), the polled
    /// rate and when the buffer is tried again.
    func busyNote(retryAt: Double) -> SensorBusy {
        let holder = IIONodeHolder.find(node: node)
        return SensorBusy(
            device: plan.accel.id, node: node, holder: holder?.description, holderPID: holder?.pid,
            rateHz: polledRateHz, retryAt: retryAt)
    }

    /// Waits at most `timeoutMs` for data and returns what arrived.
    ///
    /// - Throws: ``IIOError`` with ``IIOError/isTransient`` when the device went away.
    func step(timeoutMs: Int32) throws(IIOError) -> Step {
        if let buffer { return try bufferedStep(buffer, timeoutMs: timeoutMs) }
        // Polled: the caller paces calls at the rate.
        let raw: [Int64]
        switch accel.poll() {
        case .success(let r): raw = r
        case .failure(let e): throw lost(plan.accel, e)
        }
        let now = monotonicSeconds()
        try readSides(now: now)
        return makeSample(time: now, accelRaw: raw, gyroRaw: nil)
    }

    private func lost(_ device: IIODeviceHandle, _ e: IIOErrno) -> IIOError {
        e.meansGone
            ? .deviceLost(device: device.id, errno: e.code) : .io(device: device.id, what: "read", errno: e.code)
    }

    private func bufferedStep(_ buf: OpaquePointer, timeoutMs: Int32) throws(IIOError) -> Step {
        var pfd = pollfd(fd: iio_buffer_get_poll_fd(buf), events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, timeoutMs)
        let now = monotonicSeconds()
        if ready <= 0 {
            // No data: a vanished device shows only as silence, so look for its folder now and then.
            if now - quietSince > 0.5 {
                quietSince = now
                if context.uri.hasPrefix("local:"), access("/sys/bus/iio/devices/\(plan.accel.id)", F_OK) != 0 {
                    throw IIOError.deviceLost(device: plan.accel.id, errno: ENODEV)
                }
            }
            return .idle
        }
        let n = iio_buffer_refill(buf)
        if n == -Int(EAGAIN) || n == 0 { return .idle }
        if n < 0 { throw lost(plan.accel, IIOErrno(Int32(-n))) }
        quietSince = now
        try readSides(now: now)
        let start = iio_buffer_start(buf)!
        let end = iio_buffer_end(buf)!
        let stepSize = iio_buffer_step(buf)
        guard stepSize > 0 else { return .idle }
        func field(_ chn: IIOChannelHandle, _ fmt: IIOScanFormat?, at sample: UnsafeMutableRawPointer) -> Int64 {
            let offset = iio_buffer_first(buf, chn.pointer)! - start
            let f = fmt ?? chn.format
            return f.decode(UnsafeRawBufferPointer(start: sample + offset, count: f.byteCount))
        }
        var samples: [MotionSample] = []
        var rejected: [String] = []
        var p = start
        while p + stepSize <= end {
            let aRaw = zip(accel.channels, accel.formats).map { field($0, $1, at: p) }
            let gRaw = gyroInBuffer ? gyro.map { g in zip(g.channels, g.formats).map { field($0, $1, at: p) } } : nil
            let t = timestamp.map { Double(field($0, nil, at: p)) * 1e-9 } ?? now
            if case .samples(let s, let r) = makeSample(time: t, accelRaw: aRaw, gyroRaw: gRaw) {
                samples += s
                rejected += r
            }
            p += stepSize
        }
        return .samples(samples, rejected: rejected)
    }

    /// Reads gyroscope and magnetometer devices other than the buffered one, at most every 20 ms (held between).
    private func readSides(now: Double) throws(IIOError) {
        guard now - lastSideRead >= 0.02 else { return }
        lastSideRead = now
        if let gyro, !gyroInBuffer, let dev = plan.gyro {
            switch gyro.poll() {
            case .success(let r) where !gyro.saturated(r): lastGyro = gyro.convert(r)
            case .success: break
            case .failure(let e): throw lost(dev, e)
            }
        }
        if let magn, let dev = plan.magn {
            switch magn.poll() {
            case .success(let r): lastMagn = magn.convert(r)
            case .failure(let e): throw lost(dev, e)
            }
        }
    }

    private func makeSample(time: Double, accelRaw: [Int64], gyroRaw: [Int64]?) -> Step {
        if accel.saturated(accelRaw) {
            return .samples([], rejected: ["\(plan.accel.id): accelerometer saturated (raw \(accelRaw))"])
        }
        if let gyroRaw, let gyro {
            if gyro.saturated(gyroRaw) {
                return .samples([], rejected: ["\(plan.accel.id): gyroscope saturated (raw \(gyroRaw))"])
            }
            lastGyro = gyro.convert(gyroRaw)
        }
        let sample = MotionSample(time: time, gyro: lastGyro, accel: accel.convert(accelRaw), mag: lastMagn)
        guard sample.accel.isFinite, sample.gyro.isFinite, sample.mag?.isFinite ?? true else {
            return .samples([], rejected: ["\(plan.accel.id): non-finite reading"])
        }
        return .samples([sample], rejected: [])
    }
}
