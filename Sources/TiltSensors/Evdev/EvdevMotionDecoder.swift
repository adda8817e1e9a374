import TiltCore

/// One Linux input event (`struct input_event`): its time, type, code and value.
package struct InputEvent: Sendable, Hashable {
    /// The kernel's time of the event, seconds (`CLOCK_MONOTONIC` when the reader asked for it with
    /// `EVIOCSCLOCKID`, as tiltd does).
    package var time: Double
    package var type: UInt16
    package var code: UInt16
    package var value: Int32

    package init(time: Double, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    /// `EV_SYN`, `EV_ABS`, `EV_MSC`.
    package static let synchronization: UInt16 = 0x00
    package static let absolute: UInt16 = 0x03
    package static let miscellaneous: UInt16 = 0x04
    /// `SYN_REPORT`, `SYN_DROPPED`.
    package static let report: UInt16 = 0
    package static let dropped: UInt16 = 3
    /// `MSC_TIMESTAMP`: the device's own time of the report, microseconds, wrapping at 2³².
    package static let timestamp: UInt16 = 0x05
}

/// Motion samples out of a motion-sensor event node (`INPUT_PROP_ACCELEROMETER`: the "… Motion Sensors" devices of
/// hid-playstation, hid-sony, hid-nintendo, hid-steam, and lis3lv02d's accelerometer), as the kernel's
/// event-codes documentation defines them (issue 31).
///
/// `ABS_X/Y/Z` are acceleration and `ABS_RX/RY/RZ` angular rate, each scaled by its axis's own `resolution` from
/// `EVIOCGABS`: units per g for acceleration, units per degree per second for rate. An axis reports only when its
/// value changes, so the decoder keeps the latest value of each, takes a report's changes together at its
/// `SYN_REPORT`, and hands out a sample there. The
/// sample's time is the device's `MSC_TIMESTAMP` when it sends one (microseconds, 32-bit and wrapping: unwrapped by
/// adding each step modulo 2³²), else the event's own time. After `SYN_DROPPED` the kernel lost events: everything up
/// to the next `SYN_REPORT` is discarded, no sample is made from it, and the caller reads the axes' current values
/// (`EVIOCGABS`) into ``resync(values:)``; the next sample then reports a gap, so the filter does not integrate across
/// it. An accelerometer-only device (no `ABS_RX…RZ`) gives samples with zero rate, as a polled IIO accelerometer does.
///
/// The samples are in the device's evdev axes, in SI units (m/s², rad/s); the mount into tilt's device frame is applied
/// afterwards, as for IIO.
package struct EvdevMotionDecoder: Sendable {
    /// The `resolution` of `ABS_X`, `ABS_Y`, `ABS_Z` (units per g) and, when the device has a gyroscope, of
    /// `ABS_RX`, `ABS_RY`, `ABS_RZ` (units per °/s). A resolution of 0 (a driver that sets none) counts as 1.
    package struct Resolutions: Sendable, Hashable {
        package var accel: [Int32]
        package var gyro: [Int32]?

        package init(accel: [Int32], gyro: [Int32]?) {
            self.accel = accel
            self.gyro = gyro
        }
    }

    /// What one event gave.
    package enum Output: Sendable, Hashable {
        /// A report completed: the sample, and whether events were lost before it (a gap not to integrate across).
        case sample(MotionSample, afterGap: Bool)
        /// The kernel dropped events: read the axes' current values and pass them to ``resync(values:)``.
        case needsResync
    }

    package let resolutions: Resolutions
    /// The latest raw value of each axis: ABS_X … ABS_RZ.
    package private(set) var values: [Int32] = [0, 0, 0, 0, 0, 0]
    /// The changes of the report under way, applied together at its `SYN_REPORT` (a report cut by `SYN_DROPPED`
    /// changes nothing).
    private var pending: [Int32?] = [nil, nil, nil, nil, nil, nil]
    private var dropping = false
    private var gapPending = false
    private var lastStamp: UInt32?
    private var stampSeconds = 0.0
    private var sawStampInReport = false
    /// Samples handed out, and reports lost to `SYN_DROPPED`.
    package private(set) var samples = 0
    package private(set) var drops = 0

    package init(resolutions: Resolutions) {
        self.resolutions = resolutions
    }

    /// Takes one event; returns a sample at each `SYN_REPORT` (none while events are being dropped).
    package mutating func feed(_ event: InputEvent) -> Output? {
        switch (event.type, event.code) {
        case (InputEvent.synchronization, InputEvent.dropped):
            dropping = true
            gapPending = true
            drops += 1
            pending = [nil, nil, nil, nil, nil, nil]
            return .needsResync
        case (InputEvent.synchronization, InputEvent.report):
            if dropping {
                // The end of the broken report: nothing in it is trusted.
                dropping = false
                sawStampInReport = false
                return nil
            }
            let time = sawStampInReport ? stampSeconds : event.time
            sawStampInReport = false
            for (i, change) in pending.enumerated() { if let change { values[i] = change } }
            pending = [nil, nil, nil, nil, nil, nil]
            samples += 1
            defer { gapPending = false }
            return .sample(sample(at: time), afterGap: gapPending)
        case (InputEvent.absolute, let code) where code <= 5:
            if !dropping { pending[Int(code)] = event.value }
            return nil
        case (InputEvent.miscellaneous, InputEvent.timestamp):
            guard !dropping else { return nil }
            let stamp = UInt32(bitPattern: event.value)
            if let last = lastStamp {
                stampSeconds += Double(stamp &- last) * 1e-6
            } else {
                stampSeconds = event.time
            }
            lastStamp = stamp
            sawStampInReport = true
            return nil
        default:
            return nil
        }
    }

    /// The axes' values read after `SYN_DROPPED` (`EVIOCGABS` of ABS_X … ABS_RZ; fewer for an accelerometer-only
    /// device). The device's timestamp restarts from the next report's event time.
    package mutating func resync(values current: [Int32]) {
        for (i, v) in current.prefix(6).enumerated() { values[i] = v }
        lastStamp = nil
    }

    private func sample(at time: Double) -> MotionSample {
        func scaled(_ index: Int, _ resolution: Int32) -> Double {
            Double(values[index]) / Double(resolution == 0 ? 1 : resolution)
        }
        let r = resolutions.accel + [1, 1, 1]
        let accel = Vector3(scaled(0, r[0]), scaled(1, r[1]), scaled(2, r[2])) * standardGravity
        var gyro = Vector3.zero
        if let g = resolutions.gyro.map({ $0 + [1, 1, 1] }) {
            gyro = Vector3(scaled(3, g[0]), scaled(4, g[1]), scaled(5, g[2])) * (Double.pi / 180)
        }
        return MotionSample(time: time, gyro: gyro, accel: accel)
    }
}
