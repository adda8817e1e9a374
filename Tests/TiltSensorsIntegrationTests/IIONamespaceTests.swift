import Foundation
import Testing
import TiltCore
import TiltSensors
import TiltTestKit

/// The real libiio local backend against fake sysfs trees, through the built `tilt` executable run in a private
/// user + mount namespace (see ``FakeIIOTree``). Skipped, saying why, where namespaces are not permitted.
@Suite(
    .serialized,
    .enabled(if: FakeIIOTree.namespacesWork, "unprivileged user+mount namespaces (unshare -rm) are not permitted here"))
struct IIONamespaceTests {
    let tilt = TestPaths.executable("tilt")

    /// Rows of a CSV log as numbers, comments and header left out.
    /// The file `tilt record` is writing for `out`: its `.partial-XXXXXX-NAME` next to it until the recording ends
    /// and renames it to `out`.
    func recording(_ out: String) throws -> String {
        let url = URL(fileURLWithPath: out)
        let folder = url.deletingLastPathComponent().path
        let partial = try FileManager.default.contentsOfDirectory(atPath: folder).first {
            $0.hasPrefix(".partial-") && $0.hasSuffix("-" + url.lastPathComponent)
        }
        return partial.map { folder + "/" + $0 } ?? out
    }

    func rows(_ path: String) throws -> [[Double]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("t,") }
            .map { $0.split(separator: ",").map { Double($0) ?? .nan } }
    }

    func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

    @Test func discoversConvertibleImuAndMagnetometer() throws {
        let tree = try FakeIIOTree()
        try tree.addDevice(0, name: "cros-ec-accel", label: "accel-base", kinds: ["accel"], scale: ["accel": "0.0048"])
        try tree.addDevice(
            1, name: "cros-ec-accel", label: "accel-display", kinds: ["accel"], scale: ["accel": "0.0048"],
            mountMatrix: "-1, 0, 0; 0, -1, 0; 0, 0, 1", rates: "12.5 25 50 100")
        try tree.addDevice(2, name: "ak8975", kinds: ["magn"], scale: ["magn": "0.003"])
        try tree.addDevice(
            3, name: "bmi160", kinds: ["accel", "anglvel"], scale: ["accel": "0.000598", "anglvel": "0.001065"],
            rates: "25 50 100 200", scan: .init(kinds: ["accel", "anglvel"], type: "le:s16/16>>0"))
        let result = try tree.run([tilt, "sensors", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let reports = try JSONDecoder().decode(SensorInventory.self, from: Data(result.stdout.utf8)).iio
        #expect(reports.map(\.id) == ["iio:device0", "iio:device1", "iio:device2", "iio:device3"])
        let base = try #require(reports.first { $0.label == "accel-base" })
        let display = try #require(reports.first { $0.label == "accel-display" })
        #expect(!base.used && base.role.contains("base"))
        #expect(display.used && display.role == "accelerometer in use" && display.mode == "polled")
        #expect(display.mountMatrix == "-1, 0, 0; 0, -1, 0; 0, 0, 1" && display.mountMatrixSource == "kernel")
        #expect(display.availableRatesHz == [12.5, 25, 50, 100] && display.rateHz == 100)
        #expect(display.scale["accel"] == 0.0048)
        #expect(reports[2].used && reports[2].kinds == ["magn"])
        #expect(reports[3].mode == "buffered" && reports[3].used && reports[3].trigger == "bmi160-dev3")
        #expect(reports[3].channels.contains("timestamp") && reports[3].kinds == ["accel", "anglvel"])
        let overridden = try tree.run(
            [tilt, "sensors", "--json"], environment: ["TILT_ACCEL_MOUNT_MATRIX": "0, 1, 0; 1, 0, 0; 0, 0, -1"])
        let withEnv = try JSONDecoder().decode(SensorInventory.self, from: Data(overridden.stdout.utf8)).iio
        #expect(withEnv[1].mountMatrix == "0, 1, 0; 1, 0, 0; 0, 0, -1" && withEnv[1].mountMatrixSource == "environment")
        let text = try tree.run([tilt, "sensors"])
        #expect(text.stdout.contains("accel-base") && text.stdout.contains("buffered"))
    }

    @Test func polledFallbackAppliesScaleOffsetUdevMatrixAndMagnetometer() throws {
        let tree = try FakeIIOTree()
        try tree.addDevice(
            0, name: "accel_3d", kinds: ["accel"], scale: ["accel": "0.01"], offset: ["accel": "5"],
            raw: ["accel": [100, 200, 1000]], rates: "10 20")
        try tree.addDevice(1, name: "ak8975", kinds: ["magn"], scale: ["magn": "0.001"], raw: ["magn": [100, 0, -400]])
        try Data("E:ACCEL_MOUNT_MATRIX=0, -1, 0; 1, 0, 0; 0, 0, 1\n".utf8)
            .write(to: URL(fileURLWithPath: tree.udevDataDirectory + "/+iio:iio:device0"))
        let env = ["TILT_UDEV_DATA_DIR": tree.udevDataDirectory]
        let list = try tree.run([tilt, "sensors", "--json"], environment: env)
        let reports = try JSONDecoder().decode(SensorInventory.self, from: Data(list.stdout.utf8)).iio
        #expect(reports.first?.mountMatrixSource == "udev" && reports.first?.mode == "polled")

        let out = tree.root.appendingPathComponent("polled.csv").path
        let result = try tree.run(
            [tilt, "record", "--from", "iio", "--output", out, "--duration", "0.8", "--rate", "20"], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        let header = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").prefix(2)
        #expect(header.first?.hasPrefix("# sampling_rate_hz=20") == true)
        #expect(header.last == "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z,mag_x,mag_y,mag_z")
        let data = try rows(out)
        #expect(data.count >= 5 && data.count <= 20, "\(data.count) rows at 20 Hz in 0.8 s")
        for r in data {
            // (raw + offset) * scale = (1.05, 2.05, 10.05); the udev matrix maps (x, y, z) to (-y, x, z).
            #expect(close(r[4], -2.05) && close(r[5], 1.05) && close(r[6], 10.05), "\(r)")
            // Gauss to µT: raw * 0.001 * 100.
            #expect(close(r[7], 10) && close(r[8], 0) && close(r[9], -40), "\(r)")
            #expect(r[1] == 0 && r[2] == 0 && r[3] == 0)
        }
        #expect(zip(data, data.dropFirst()).allSatisfy { $0[0] < $1[0] }, "monotonic time")
    }

    @Test(arguments: ["le:s16/16>>0", "be:s12/16>>4", "le:s32/32>>0"])
    func bufferedCaptureDecodesEnablesOnDemandAndDisables(type: String) throws {
        let tree = try FakeIIOTree()
        try tree.addDevice(
            0, name: "bmi160", label: "accel-display", kinds: ["accel", "anglvel"],
            scale: ["accel": "0.001", "anglvel": "0.01"], mountMatrix: "1, 0, 0; 0, 1, 0; 0, 0, 1",
            rates: "25 50 100 200", scan: .init(kinds: ["accel", "anglvel"], type: type))
        #expect(tree.read(device: 0, "buffer/enable") == "0")
        let out = tree.root.appendingPathComponent("buffered.csv").path
        let child = try tree.start([
            tilt, "record", "--from", "iio", "--output", out, "--duration", "3", "--rate", "60",
        ])
        #expect(eventually { tree.read(device: 0, "buffer/enable") == "1" }, "the buffer is enabled on start")
        #expect(tree.read(device: 0, "scan_elements/in_accel_x_en") == "1")
        #expect(tree.read(device: 0, "scan_elements/in_anglvel_z_en") == "1")
        #expect(tree.read(device: 0, "scan_elements/in_timestamp_en") == "1")
        #expect(tree.read(device: 0, "trigger/current_trigger") == "bmi160-dev0")
        #expect(tree.read(device: 0, "current_timestamp_clock") == "monotonic")
        #expect(tree.read(device: 0, "sampling_frequency") == "100", "lowest available rate serving 60 Hz")
        let format = try IIOScanFormat(parsing: type)
        var scans = (0..<10).map { i in
            FakeIIOTree.pack(
                [-100, 200, 1000, 1, -2, 3], type: type, timestampNs: 1_000_000_000 + Int64(i) * 10_000_000)
        }
        scans.append(
            FakeIIOTree.pack([format.range.upperBound, 0, 0, 0, 0, 0], type: type, timestampNs: 2_000_000_000))
        try tree.feed(0, scans: scans)
        let result = try child.wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(tree.read(device: 0, "buffer/enable") == "0", "the buffer is disabled when capture stops")
        #expect(result.stderr.contains("(1 rejected)"), "the saturated scan is rejected: \(result.stderr)")
        let data = try rows(out)
        try #require(data.count == 10, "\(data.count) rows; stderr: \(result.stderr)")
        for (i, r) in data.enumerated() {
            #expect(close(r[0], 1 + Double(i) * 0.01), "IIO timestamp is the time base: \(r[0])")
            #expect(close(r[1], 0.01) && close(r[2], -0.02) && close(r[3], 0.03), "\(r)")
            #expect(close(r[4], -0.1) && close(r[5], 0.2) && close(r[6], 1.0), "\(r)")
        }
    }

    @Test func deviceRemovalIsReportedAndItsReturnResumes() throws {
        let tree = try FakeIIOTree()
        try tree.addDevice(
            0, name: "accel_3d", kinds: ["accel"], scale: ["accel": "0.01"], raw: ["accel": [0, 0, 981]], rates: "20")
        let out = tree.root.appendingPathComponent("hotplug.csv").path
        let child = try tree.start([tilt, "record", "--from", "iio", "--output", out, "--duration", "4"])
        func recorded() -> Int { (try? rows(recording(out)).count) ?? 0 }
        // Recording (rows written), not merely started, before the device goes.
        try #require(eventually(timeout: 10) { recorded() > 0 }, "no rows recorded")
        try tree.removeDevice(0)
        // Gone: the rows stop coming (those still unflushed are written within half a second).
        var last = -1
        try #require(
            eventually(timeout: 10, every: 0.6) {
                let now = recorded()
                defer { last = now }
                return now == last
            }, "rows kept coming with the device gone")
        let rowsWhileGone = recorded()
        usleep(300_000)  // gone a moment longer, as a real unplug is
        try tree.restoreDevice(0)
        let result = try child.wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("sensor lost"), "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "sensor active").count - 1 == 2, "\(result.stderr)")
        let data = try rows(out)
        // Up to half a second of rows (10) may still have been unflushed while the device was gone.
        #expect(
            data.count > rowsWhileGone + 15,
            "samples resume after the device returns (\(rowsWhileGone) → \(data.count))")
    }

    @Test func bufferedDeviceRemovalIsReportedAndItsReturnReopensTheBuffer() throws {
        let tree = try FakeIIOTree()
        let type = "le:s16/16>>0"
        try tree.addDevice(
            0, name: "bmi160", kinds: ["accel", "anglvel"], scale: ["accel": "0.001", "anglvel": "0.01"],
            rates: "100", scan: .init(kinds: ["accel", "anglvel"], type: type))
        let out = tree.root.appendingPathComponent("buffered-hotplug.csv").path
        let child = try tree.start([tilt, "record", "--from", "iio", "--output", out, "--duration", "5"])
        let scans = (0..<5).map { i in
            FakeIIOTree.pack([0, 0, 1000, 0, 0, 0], type: type, timestampNs: 1_000_000_000 + Int64(i) * 10_000_000)
        }
        try tree.feed(0, scans: scans)
        try tree.removeDevice(0)
        // The device comes back only once the recorder has seen it go.
        try #require(
            eventually(timeout: 20) { child.stderrSoFar.contains("sensor lost") }, "\(child.stderrSoFar)")
        try tree.restoreDevice(0)
        // feed waits until the source opens the character device again.
        try tree.feed(0, scans: scans)
        let result = try child.wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("sensor lost"), "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "sensor active").count - 1 == 2, "\(result.stderr)")
        #expect(try rows(out).count == 10, "\(result.stderr)")
        #expect(tree.read(device: 0, "buffer/enable") == "0")
    }
}
