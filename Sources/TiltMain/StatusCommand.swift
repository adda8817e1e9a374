import ArgumentParser
import FoundationEssentials
import TiltClient
import TiltCore
import TiltTools
import TiltWire

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the daemon's state: source, sensor, clients, power.")

    @OptionGroup var socketOptions: SocketOptions

    @Flag(name: .long, help: "Print the status as the daemon sends it, one JSON object.")
    var json = false

    func run() async throws {
        let answer = try await TiltConnection.request(.status, socketPath: socketOptions.socket) {
            if case .status = $0 { return true } else { return false }
        }
        guard case .status(let s) = answer else { return }
        if json {
            print(s.jsonLine)
            return
        }
        let deg = 180 / Double.pi
        let mode = s.sensorMode.map { " (\($0))" } ?? ""
        print(
            """
            daemon       \(s.daemon) (protocol \(s.protocol)), up \(String(printf: "%.1f", s.uptime)) s
            source       \(s.source)
            sensor       \(s.sensor)\(mode)\(s.requestedRate.map { String(printf: " at %.0f Hz requested", $0) } ?? "")
            clients      \(s.clients) connected, \(s.watchers) watching
            samples      \(s.samples) fused, \(s.rejected) rejected\(s.lastRejection.map { " (last: \($0))" } ?? "")
            gyro bias    \(s.gyroBias.map { String(printf: "%.2f", $0 * deg) }.joined(separator: ", ")) °/s
            calibration  \(s.calibration)
            power        \(s.power.onBattery ? "battery" : "mains")\(s.power.capacity.map { " \($0)%" } ?? "")\(s.power.profile.map { ", profile \($0)" } ?? "")\(s.power.lowPower ? ", low power" : "")
            """)
        if let o = s.orientation { print("orientation  \(o.orientation), tilt \(o.tilt)") }
        if let b = s.busy {
            print(
                "busy         \(b.node) held by \(b.holder ?? "another program"): polled at \(b.rate) Hz, "
                    + "buffer tried again in \(b.retryIn) s")
        }
        if let d = s.dsu {
            let dropped = d.dropped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            print(
                "dsu server   udp \(d.listen): \(d.subscribers) subscribed, \(d.sent) packets sent, \(d.received) "
                    + "requests\(dropped.isEmpty ? "" : ", dropped " + dropped.joined(separator: ", "))")
        }
    }
}

struct Tare: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-centre the tilt signal on the device's current pose.",
        discussion: """
            Watches until tiltd sends a settled frame (starting the sensor when it is idle), then tares on that \
            connection, so the reference is the pose of that moment, not the one the sensor stopped at. A sensor \
            that is lost or finished has no pose now: nothing is tared and the command fails.
            """)

    @OptionGroup var socketOptions: SocketOptions

    @Flag(help: "Undo every tare: the tilt is relative to the first pose after tiltd started again.")
    var reset = false

    func run() async throws {
        let reference: Quaternion
        var note = ""
        if reset {
            let answer = try await TiltConnection.request(.resetTare, socketPath: socketOptions.socket) {
                if case .tare = $0 { true } else if case .error = $0 { true } else { false }
            }
            if case .error(let message) = answer { throw TareError(.refused, "tiltd answered: \(message)") }
            guard case .tare(let q) = answer else { return }
            reference = q
        } else {
            let outcome = try await LiveTare.run(socketPath: socketOptions.socket)
            reference = outcome.reference
            if outcome.startedTheSensor { note = " (the sensor was idle; it ran for the tare)" }
        }
        print(
            "tare\(reset ? " reset" : ""): the tilt is now relative to "
                + "[\(reference.array.map { String(printf: "%.4f", $0) }.joined(separator: ", "))]\(note)")
    }
}
