import ArgumentParser
import FoundationEssentials
import TiltCore
import TiltSensors
import TiltTools

/// `tilt sensors`: lists the IIO motion devices libiio finds and the evdev motion sensors, and which ones tilt reads.
struct Sensors: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the IIO and evdev accelerometers, gyroscopes and magnetometers, and which ones tilt reads.",
        discussion: """
            Shows for each IIO device its channels, rate, scale, mount matrix and whether it streams through a \
            buffer or is polled. On convertibles both accelerometers are listed; the one labelled accel-display is \
            used.
            Mount matrix, first found: $TILT_ACCEL_MOUNT_MATRIX ("a, b, c; d, e, f; g, h, i"), the kernel's \
            in_accel_mount_matrix / mount_matrix, udev's ACCEL_MOUNT_MATRIX in /run/udev/data/+iio:iio:deviceN \
            (folder overridable with $TILT_UDEV_DATA_DIR), else the identity.
            Then the evdev motion sensors (game controllers' "… Motion Sensors" nodes, lis3lv02d), which \
            `tiltd --evdev` reads: node, name, axes, resolutions, mount and the report rate measured over a moment.
            """)

    @Option(name: .long, help: ArgumentHelp("The libiio context: local: or ip:HOST.", valueName: "URI"))
    var uri = "local:"

    @Flag(name: .long, help: "Print the reports as JSON: {\"iio\": [...], \"iioError\": ..., \"evdev\": [...]}.")
    var json = false

    func run() async throws {
        let inventory = SensorInventory.scan(uri: uri)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            StandardStream.output.write(try encoder.encode(inventory) + Data("\n".utf8))
            return
        }
        if let iioError = inventory.iioError {
            guard !inventory.evdev.isEmpty else {
                let evdev = "no evdev motion sensors (INPUT_PROP_ACCELEROMETER) in /sys/class/input either"
                StandardStream.error.write(Data("error: \(iioError); \(evdev)\n".utf8))
                throw ExitCode(1)
            }
            print("IIO: \(iioError)")
        } else if inventory.iio.isEmpty {
            print("no IIO motion sensors found at \(uri)")
        }
        for r in inventory.iio { printIIO(r) }
        if inventory.evdev.isEmpty {
            print("no evdev motion sensors found (INPUT_PROP_ACCELEROMETER in /sys/class/input)")
        }
        for r in inventory.evdev { printEvdev(r) }
    }

    private func printIIO(_ r: IIODeviceReport) {
        let label = r.label.map { " (\($0))" } ?? ""
        print("\(r.id): \(r.name)\(label) — \(r.used ? "used" : "not used"): \(r.role)")
        let trigger = r.trigger.map { ", trigger \($0)" } ?? ""
        print("  kinds:    \(r.kinds.map(\.rawValue).joined(separator: ", "))  [\(r.mode)\(trigger)]")
        print("  channels: \(r.channels.joined(separator: " "))")
        let rate = r.rateHz.map { "\($0) Hz" } ?? "unknown"
        let rates = r.availableRatesHz.map { "\($0)" }.joined(separator: " ")
        let avail = rates.isEmpty ? "" : " (available: \(rates))"
        print("  rate:     \(rate)\(avail)")
        let scale = r.scale.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("  scale:    \(scale.isEmpty ? "none" : scale)")
        if !r.offset.isEmpty {
            let offset = r.offset.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            print("  offset:   \(offset.joined(separator: ", "))")
        }
        print("  mount:    \(r.mountMatrix) (\(r.mountMatrixSource))")
    }

    private func printEvdev(_ r: EvdevDeviceReport) {
        print("\(r.path): \(r.name) — evdev (tiltd --evdev \(r.path))")
        print("  kinds:    \(r.kinds.map(\.rawValue).joined(separator: ", "))  [axes \(r.axes.joined(separator: " "))]")
        if let accel = r.accelResolution {
            let gyro = r.gyroResolution.map { ", gyro \($0.map(String.init).joined(separator: " ")) per °/s" } ?? ""
            print("  resolution: accel \(accel.map(String.init).joined(separator: " ")) per g\(gyro)")
        }
        print("  rate:     \(r.rateHz.map { "\(($0 * 10).rounded() / 10) Hz (measured)" } ?? "unknown")")
        print("  mount:    \(r.mount)")
        if let uniq = r.uniq { print("  uniq:     \(uniq)") }
        if let problem = r.problem { print("  cannot open: \(problem)") }
    }
}
