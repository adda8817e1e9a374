import ArgumentParser
import FoundationEssentials
import TiltCore
import TiltSensors

/// `tilt sensors`: lists the IIO motion devices libiio finds, and which ones tilt reads.
struct Sensors: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the IIO accelerometers, gyroscopes and magnetometers, and which ones tilt reads.",
        discussion: """
            Shows for each device its channels, rate, scale, mount matrix and whether it streams through a buffer \
            or is polled. On convertibles both accelerometers are listed; the one labelled accel-display is used.
            Mount matrix, first found: $TILT_ACCEL_MOUNT_MATRIX ("a, b, c; d, e, f; g, h, i"), the kernel's \
            in_accel_mount_matrix / mount_matrix, udev's ACCEL_MOUNT_MATRIX in /run/udev/data/+iio:iio:deviceN \
            (folder overridable with $TILT_UDEV_DATA_DIR), else the identity.
            """)

    @Option(name: .long, help: ArgumentHelp("The libiio context: local: or ip:HOST.", valueName: "URI"))
    var uri = "local:"

    @Flag(name: .long, help: "Print the reports as a JSON array.")
    var json = false

    func run() async throws {
        let reports: [IIODeviceReport]
        do {
            reports = try IIOContextScanner.scan(uri: uri)
        } catch {
            StandardStream.error.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            StandardStream.output.write(try encoder.encode(reports) + Data("\n".utf8))
            return
        }
        if reports.isEmpty {
            print("no IIO motion sensors found at \(uri)")
            return
        }
        for r in reports {
            let label = r.label.map { " (\($0))" } ?? ""
            print("\(r.id): \(r.name)\(label) — \(r.used ? "used" : "not used"): \(r.role)")
            let trigger = r.trigger.map { ", trigger \($0)" } ?? ""
            print("  kinds:    \(r.kinds.joined(separator: ", "))  [\(r.mode)\(trigger)]")
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
    }
}
