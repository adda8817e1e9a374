import Testing
import TiltCore
import TiltSensors

/// The evdev motion decoding on event streams written in `evemu-record`'s format (`E: SECONDS TYPE CODE VALUE`, type
/// and code in hex): scaling by each axis's resolution, the 32-bit device timestamp's wrap, `SYN_DROPPED` recovery.
@Suite struct EvdevMotionDecoderTests {
    /// The events of an evemu recording.
    static func events(_ recording: String) -> [InputEvent] {
        recording.split(separator: "\n").compactMap { line -> InputEvent? in
            let fields = line.split(separator: "#")[0].split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 5, fields[0] == "E:", let time = Double(fields[1]),
                let type = UInt16(fields[2], radix: 16), let code = UInt16(fields[3], radix: 16),
                let value = Int32(fields[4])
            else { return nil }
            return InputEvent(time: time, type: type, code: code, value: value)
        }
    }

    /// hid-playstation's DualSense: 8192 units per g, 1024 units per °/s.
    static let dualSense = EvdevMotionDecoder.Resolutions(accel: [8192, 8192, 8192], gyro: [1024, 1024, 1024])

    static func run(_ decoder: inout EvdevMotionDecoder, _ recording: String) -> [EvdevMotionDecoder.Output] {
        events(recording).compactMap { decoder.feed($0) }
    }

    @Test("each axis is scaled by its own resolution into m/s² and rad/s; unchanged axes keep their value")
    func scaling() {
        var d = EvdevMotionDecoder(resolutions: Self.dualSense)
        let out = Self.run(
            &d,
            """
            E: 10.000000 0003 0001 8192	# EV_ABS / ABS_Y 1 g
            E: 10.000000 0003 0003 92160	# EV_ABS / ABS_RX 90 °/s
            E: 10.000000 0003 0005 -512	# EV_ABS / ABS_RZ -0.5 °/s
            E: 10.000000 0000 0000 0000	# ------------ SYN_REPORT (0) ----------
            E: 10.004000 0003 0002 4096	# EV_ABS / ABS_Z 0.5 g
            E: 10.004000 0000 0000 0000	# ------------ SYN_REPORT (0) ----------
            """)
        guard out.count == 2, case .sample(let first, false) = out[0], case .sample(let second, false) = out[1] else {
            Issue.record("\(out)")
            return
        }
        #expect(abs(first.accel.y - standardGravity) < 1e-12 && first.accel.x == 0 && first.accel.z == 0)
        #expect(abs(first.gyro.x - .pi / 2) < 1e-12 && abs(first.gyro.z + 0.5 * .pi / 180) < 1e-12)
        #expect(first.time == 10)
        // The second report changed only z: y and the rates are as before.
        #expect(abs(second.accel.z - standardGravity / 2) < 1e-12 && abs(second.accel.y - standardGravity) < 1e-12)
        #expect(abs(second.gyro.x - .pi / 2) < 1e-12 && abs(second.time - 10.004) < 1e-12)
    }

    @Test("the device's microsecond timestamp times the samples, across its 32-bit wrap")
    func timestampWraps() {
        var d = EvdevMotionDecoder(resolutions: Self.dualSense)
        // 4294967000 µs is written by evemu as the signed -296; 4 ms later the counter has wrapped to 3704.
        let out = Self.run(
            &d,
            """
            E: 5.000000 0003 0000 100	# EV_ABS / ABS_X
            E: 5.000000 0004 0005 -296	# EV_MSC / MSC_TIMESTAMP
            E: 5.000000 0000 0000 0000	# ------------ SYN_REPORT (0) ----------
            E: 5.009000 0003 0000 200	# EV_ABS / ABS_X (delivered late: the device's clock says 4 ms)
            E: 5.009000 0004 0005 3704	# EV_MSC / MSC_TIMESTAMP
            E: 5.009000 0000 0000 0000	# ------------ SYN_REPORT (0) ----------
            E: 5.010000 0003 0000 300	# EV_ABS / ABS_X
            E: 5.010000 0004 0005 7704	# EV_MSC / MSC_TIMESTAMP
            E: 5.010000 0000 0000 0000	# ------------ SYN_REPORT (0) ----------
            """)
        let times = out.compactMap { o -> Double? in
            if case .sample(let s, _) = o { return s.time }
            return nil
        }
        #expect(times.count == 3)
        #expect(abs(times[1] - times[0] - 0.004) < 1e-9 && abs(times[2] - times[1] - 0.004) < 1e-9, "\(times)")
    }

    @Test("SYN_DROPPED: the broken report is discarded, the axes are read again, the next sample marks a gap")
    func droppedEventsRecover() {
        var d = EvdevMotionDecoder(resolutions: Self.dualSense)
        var out = Self.run(
            &d,
            """
            E: 1.000000 0003 0000 8192	# EV_ABS / ABS_X 1 g
            E: 1.000000 0000 0000 0000	# ------------ SYN_REPORT (0) ----------
            E: 1.004000 0003 0000 999	# EV_ABS / ABS_X, part of a report whose end was lost
            E: 1.004000 0000 0003 0000	# ------------ SYN_DROPPED (0) ----------
            E: 1.008000 0003 0001 555	# EV_ABS / ABS_Y, still in the broken report
            E: 1.008000 0000 0000 0000	# ------------ SYN_REPORT (0) ----------
            """)
        #expect(out.count == 2 && out[1] == .needsResync, "\(out)")
        #expect(d.values[0] == 8192 && d.values[1] == 0, "nothing of the cut report is taken: \(d.values)")
        // The caller reads the current values (EVIOCGABS) and decoding goes on.
        d.resync(values: [0, 8192, 0, 1024, 0, 0])
        out = Self.run(
            &d,
            """
            E: 1.012000 0003 0002 8192	# EV_ABS / ABS_Z
            E: 1.012000 0000 0000 0000	# ------------ SYN_REPORT (0) ----------
            E: 1.016000 0000 0000 0000	# ------------ SYN_REPORT (0) ----------
            """)
        guard out.count == 2, case .sample(let after, true) = out[0], case .sample(_, false) = out[1] else {
            Issue.record("the first sample after the drop marks the gap, the next does not: \(out)")
            return
        }
        #expect(abs(after.accel.y - standardGravity) < 1e-12 && abs(after.accel.z - standardGravity) < 1e-12)
        #expect(after.accel.x == 0 && abs(after.gyro.x - .pi / 180) < 1e-12)
        #expect(d.drops == 1 && d.samples == 3)
    }

    @Test("an accelerometer alone (lis3lv02d) gives samples with zero rate; a resolution of 0 counts as 1")
    func accelerometerOnly() {
        var d = EvdevMotionDecoder(resolutions: .init(accel: [1000, 1000, 0], gyro: nil))
        let out = Self.run(
            &d,
            """
            E: 2.000000 0003 0000 -1000	# EV_ABS / ABS_X -1 g
            E: 2.000000 0003 0002 1	# EV_ABS / ABS_Z 1 unit at resolution 0
            E: 2.000000 0003 0003 5000	# EV_ABS / ABS_RX: no gyroscope declared, ignored
            E: 2.000000 0000 0000 0000	# ------------ SYN_REPORT (0) ----------
            """)
        guard case .sample(let s, false)? = out.first else {
            Issue.record("\(out)")
            return
        }
        #expect(abs(s.accel.x + standardGravity) < 1e-12 && abs(s.accel.z - standardGravity) < 1e-12)
        #expect(s.gyro == .zero && s.time == 2)
    }
}
