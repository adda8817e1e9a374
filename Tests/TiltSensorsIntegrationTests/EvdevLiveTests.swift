import CLibEvdev
import Foundation
import Synchronization
import Testing
import TiltCore
import TiltEvdev
import TiltSensors
import TiltTestKit

/// ``EvdevMotionSource`` end to end on a virtual motion sensor the kernel makes through `/dev/uinput`: the real
/// evdev node, libevdev, resolutions, `MSC_TIMESTAMP`, the mount, and an unplug and replug. Skipped, saying why,
/// where the kernel offers no uinput (containers, machines without the module).
@Suite(
    .serialized,
    .enabled(
        if: FileManager.default.isWritableFile(atPath: "/dev/uinput"),
        "no writable /dev/uinput here (load the uinput module, run as root or in the input group)"))
struct EvdevLiveTests {
    /// A DualSense-like motion node made with libevdev's uinput API: `INPUT_PROP_ACCELEROMETER`, `ABS_X…RZ` with
    /// hid-playstation's resolutions (8192 per g, 1024 per °/s), `MSC_TIMESTAMP`.
    final class VirtualMotionSensor {
        let device: OpaquePointer
        let uinput: OpaquePointer
        /// Its event node, `/dev/input/eventN`.
        let node: String

        init(name: String) throws {
            device = libevdev_new()
            libevdev_set_name(device, name)
            libevdev_enable_property(device, UInt32(INPUT_PROP_ACCELEROMETER))
            libevdev_enable_event_type(device, UInt32(EV_ABS))
            for code in 0..<6 {
                var info = input_absinfo(
                    value: 0, minimum: -32768, maximum: 32767, fuzz: 0, flat: 0, resolution: code < 3 ? 8192 : 1024)
                libevdev_enable_event_code(device, UInt32(EV_ABS), UInt32(code), &info)
            }
            libevdev_enable_event_type(device, UInt32(EV_MSC))
            libevdev_enable_event_code(device, UInt32(EV_MSC), UInt32(MSC_TIMESTAMP), nil)
            var made: OpaquePointer?
            let rc = libevdev_uinput_create_from_device(
                device, Int32(truncatingIfNeeded: LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue), &made)
            guard rc == 0, let made, let node = libevdev_uinput_get_devnode(made) else {
                libevdev_free(device)
                throw POSIXError(POSIXErrorCode(rawValue: -rc) ?? .EIO)
            }
            uinput = made
            self.node = String(cString: node)
        }

        /// One report: the six raw axes, the device's microsecond timestamp, `SYN_REPORT`.
        func report(_ values: [Int32], stamp: UInt32) {
            for (code, value) in values.enumerated() {
                libevdev_uinput_write_event(uinput, UInt32(EV_ABS), UInt32(code), value)
            }
            libevdev_uinput_write_event(uinput, UInt32(EV_MSC), UInt32(MSC_TIMESTAMP), Int32(bitPattern: stamp))
            libevdev_uinput_write_event(uinput, UInt32(EV_SYN), UInt32(SYN_REPORT), 0)
        }

        /// Unplugs it.
        func destroy() {
            libevdev_uinput_destroy(uinput)
            libevdev_free(device)
        }
    }

    /// The events a source reported, from its task.
    final class Seen: Sendable {
        private let events = Mutex<[MotionSourceEvent]>([])
        func withLock<T>(_ body: (inout [MotionSourceEvent]) -> T) -> T { events.withLock { body(&$0) } }
    }

    @Test("samples are scaled by resolution, timed by MSC_TIMESTAMP, mounted; an unplug is lost, a replug active")
    func readsAVirtualController() async throws {
        let name = "tilt test \(UUID().uuidString.prefix(8)) Motion Sensors"
        var sensor = try VirtualMotionSensor(name: name)
        // A stable link, as /dev/input/by-id gives: the node's number may change when the device comes back.
        let link = NSTemporaryDirectory() + "tilt-evdev-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: sensor.node)
        defer { try? FileManager.default.removeItem(atPath: link) }
        // udev may still be setting the node up.
        #expect(eventually { FileManager.default.isReadableFile(atPath: sensor.node) })

        let source = try EvdevMotionSource(configuration: .init(path: link))
        #expect(source.name == "evdev:" + name && source.sensors.first?.kinds == ["accel", "anglvel"])
        let seen = Seen()
        let task = Task { try await source.run(rate: nil) { event in seen.withLock { $0.append(event) } } }
        defer { task.cancel() }
        func samples() -> [MotionSample] {
            seen.withLock { $0.compactMap { if case .sample(let s) = $0 { s } else { nil } } }
        }
        func states() -> [SensorState] {
            seen.withLock { $0.compactMap { if case .sensor(let s, _) = $0 { s } else { nil } } }
        }
        #expect(eventually { states() == [.active] }, "\(seen.withLock { $0 })")
        // Controller axes: accel (0.5, 1, −1) g, rate (1, 2, 3) °/s; each report changes every axis by one unit so
        // the kernel passes them all on.
        for i in 0..<5 {
            let d = Int32(i)
            sensor.report(
                [4096 + d, 8192 + d, -8192 + d, 1024 + d, 2048 + d, 3072 + d], stamp: 4_294_967_000 &+ UInt32(i) * 1000)
            usleep(2000)
        }
        #expect(eventually { samples().count == 5 }, "\(seen.withLock { $0 })")
        let got = samples()
        let g = standardGravity
        let degree = Double.pi / 180
        let first = try #require(got.first)
        // The controller mount: device (x, −z, y).
        #expect(abs(first.accel.x - 0.5 * g) < 1e-9 && abs(first.accel.y - g) < 1e-9 && abs(first.accel.z - g) < 1e-9)
        #expect(
            abs(first.gyro.x - degree) < 1e-9 && abs(first.gyro.y + 3 * degree) < 1e-9
                && abs(first.gyro.z - 2 * degree) < 1e-9)
        // 1 ms apart by the device's clock, across its 32-bit wrap.
        for (a, b) in zip(got, got.dropFirst()) { #expect(abs(b.time - a.time - 0.001) < 1e-9) }
        // The event time it starts from is CLOCK_MONOTONIC.
        #expect(abs(first.time - monotonicSeconds()) < 5)

        sensor.destroy()
        #expect(eventually { states() == [.active, .lost] }, "\(seen.withLock { $0 })")
        sensor = try VirtualMotionSensor(name: name)
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: sensor.node)
        #expect(eventually { states() == [.active, .lost, .active] }, "\(seen.withLock { $0 })")
        sensor.report([0, 8192, 0, 0, 0, 0], stamp: 5)
        #expect(eventually { samples().count == 6 }, "\(seen.withLock { $0 })")
        task.cancel()
        _ = await task.result
        sensor.destroy()
    }
}
