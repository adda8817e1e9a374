import ArgumentParser
import FoundationEssentials
import Glibc
import TiltClient
import TiltCore
import TiltWire

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the live attitude stream.",
        discussion: """
            By default one line that updates in place: roll, pitch and yaw in degrees, and the tilt signal in \
            radians. --json prints the daemon's frames as they come, one JSON object per line. Keeps going \
            across daemon restarts. Ctrl-C stops.
            """)

    @OptionGroup var socketOptions: SocketOptions

    @Option(name: .long, parsing: .unconditional, help: "Frames per second to ask for.")
    var rate: Double = 10

    @Flag(name: .long, help: "Print the frames as JSON lines.")
    var json = false

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Stop after this many frames.", valueName: "N"))
    var count: Int?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Give the frames in the axes of a picture the display turns this many degrees counter-clockwise.",
            valueName: "0|90|180|270"))
    var screenRotation: Int = 0

    @Flag(
        inversion: .prefixedNo,
        help: "Ask for the 9D (magnetometer) or, with --no-magnetometer, the 6D attitude (default: the daemon's).")
    var magnetometer: Bool?

    func validate() throws {
        if ScreenRotation(degrees: screenRotation) == nil {
            throw ValidationError("--screen-rotation must be 0, 90, 180 or 270, not \(screenRotation)")
        }
        guard rate >= WireProtocol.minRate, rate <= WireProtocol.maxRate else { throw ValidationError(Self.rateRange) }
        if let count, count <= 0 { throw ValidationError("--count must be positive") }
    }

    /// The `--rate` range, the rates tiltd grants (docs/protocol.md, `watch`).
    static let rateRange =
        "--rate must be from \(WireProtocol.minRate) to \(Int(WireProtocol.maxRate)) frames per second, the rates tiltd "
        + "grants"

    func run() async throws {
        let subscriber = TiltSubscriber(
            configuration: .init(
                socketPath: socketOptions.socket, rate: rate,
                screenRotation: ScreenRotation(degrees: screenRotation) ?? .normal, magnetometer: magnetometer))
        let interactive = isatty(STDOUT_FILENO) == 1 && !json
        var frames = 0
        var warnedDisconnected = false
        for await event in subscriber.events() {
            switch event {
            case .connected(let hello):
                warnedDisconnected = false
                let sensors = hello.sensors.map { "\($0.name) (\($0.mode))" }.joined(separator: ", ")
                StandardStream.error.write(
                    "connected to \(hello.daemon), protocol \(hello.protocol), sensors: \(sensors)\n")
            case .message(.attitude(let frame)):
                frames += 1
                // A reader that went away (`tilt watch | head -2`) ends the command here (StandardOutput).
                if json {
                    try StandardOutput.line(ServerMessage.encode(frame: frame))
                } else {
                    let line = Self.humanLine(frame)
                    if interactive {
                        try StandardOutput.write("\r\u{1B}[K" + line)
                    } else {
                        try StandardOutput.line(line)
                    }
                }
                if let count, frames >= count {
                    if interactive { try StandardOutput.line("") }
                    subscriber.close()
                    return
                }
            case .message(.sensor(let e)):
                StandardStream.error.write("\(interactive ? "\n" : "")sensor \(e.state): \(e.reason)\n")
                if let count, e.state == .finished {
                    // A finished replay sends no more frames: waiting for the rest would be for ever.
                    subscriber.close()
                    StandardStream.error.write("error: the sensor finished after \(frames) of \(count) frames\n")
                    throw ExitCode(1)
                }
            case .message(.power(let p)):
                StandardStream.error.write(
                    "\(interactive ? "\n" : "")power: \(p.onBattery ? "battery" : "mains")\(p.lowPower ? ", low power" : "")\n"
                )
            case .message(.orientation(let o)):
                StandardStream.error.write("\(interactive ? "\n" : "")orientation: \(o.orientation), \(o.tilt)\n")
            case .message(.error(let message)):
                StandardStream.error.write("error: tiltd answered: \(message)\n")
            case .disconnected(let reason):
                if !warnedDisconnected {
                    try Self.giveUpIfRetryingCannotHelp(subscriber)
                    StandardStream.error.write("\(interactive ? "\n" : "")disconnected: \(reason); retrying…\n")
                    warnedDisconnected = true
                }
            case .message:
                break  // raw samples and answers to commands this does not send
            }
        }
    }

    /// Retrying helps when the daemon is not running yet (or restarts), not when this user may not use its socket or
    /// the path cannot be a socket: then this stops with the connect error (exit status 1) instead of retrying
    /// forever.
    ///
    /// The subscriber reports a lost connection as text, so this asks the socket once more, on the failure path only.
    static func giveUpIfRetryingCannotHelp(_ subscriber: TiltSubscriber) throws {
        do {
            close(try DaemonSocket.connect(path: subscriber.socketPath, timeout: 1))
        } catch let error where error.kind == .permissionDenied || error.kind == .unusableSocket {
            subscriber.close()
            throw error
        } catch {
            // Not running, closed, or slow: the subscriber keeps trying.
        }
    }

    static func humanLine(_ f: AttitudeFrame) -> String {
        let e = f.euler
        let deg = 180 / Double.pi
        func fmt(_ v: Double, _ width: Int = 7, _ digits: Int = 1) -> String {
            String(printf: "%\(width).\(digits)f", v)
        }
        var flags: [String] = []
        if f.flags.initializing { flags.append("init") }
        if f.flags.rest { flags.append("rest") }
        if f.flags.accelDisturbed { flags.append("acc!") }
        if f.flags.magDisturbed { flags.append("mag!") }
        return "roll \(fmt(e.roll * deg))°  pitch \(fmt(e.pitch * deg))°  yaw \(fmt(e.yaw * deg))°  "
            + "tilt x \(fmt(f.tilt.x, 6, 3)) y \(fmt(f.tilt.y, 6, 3))  #\(f.seq) \(flags.joined(separator: " "))"
    }
}
