import ArgumentParser
import FoundationEssentials
import TiltCore
import TiltSensors
import TiltTools

struct Fuse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the daemon's fusion filter offline over a log, as fast as it can.",
        discussion: """
            Writes one CSV row per input sample: t,qw,qx,qy,qz (device → earth, ENU, Hamilton), then roll,pitch,yaw \
            (radians), tilt_x,tilt_y, the bias-corrected rotation rate, gravity, user acceleration and flags. \
            With --predict SECONDS each row holds the attitude (quaternion, angles, gravity, tilt) predicted for its \
            t plus SECONDS, as a watcher asking tiltd for "predict" gets it; t stays the sample's time.
            """)

    @Option(name: .long, help: ArgumentHelp("The log to read (.csv or .csv.gz).", valueName: "LOG"))
    var input: String

    @Option(
        name: .long, help: ArgumentHelp("Where to write the fused CSV ('-' for standard output).", valueName: "OUT"))
    var output: String

    @Flag(name: .customLong("no-mag"), help: "Ignore the magnetometer (6D fusion).")
    var noMag = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write the attitude predicted this many seconds ahead of each sample (0 to 0.1, whole milliseconds).",
            valueName: "SECONDS"))
    var predict: Double = 0

    @Flag(name: .long, help: "Replace the output file when it exists (never the input log).")
    var force = false

    @OptionGroup var badRows: StrictOption

    func validate() throws {
        guard predict.isFinite, predict >= 0, predict <= 0.1 else {
            throw ValidationError("--predict must be from 0 to 0.1 seconds (e.g. 0.03), not \(predict)")
        }
    }

    func run() async throws {
        // Refuse a bad output before any work; the fused rows go to a temporary file renamed into place at the end,
        // so a failed or interrupted run leaves an existing file as it was.
        let file = output == "-" ? nil : try AtomicFileOutput(path: output, replacing: force, inputs: [input])
        file?.discardOnInterrupt(
            saying: "interrupted: \(output) was not written"
                + (FileManager.default.fileExists(atPath: output)
                    ? " (the earlier file is kept as it was)" : ""))
        // A log that cannot be read is an I/O failure: its error names the file and says what to check.
        let log = try badRows.read(input)
        let emit: (String) throws -> Void
        if let file {
            emit = { try file.write($0) }
        } else {
            emit = { try StandardOutput.write($0) }
        }
        let name = "fuse:" + (input.split(separator: "/").last.map(String.init) ?? input)
        try FusedCSV.fuse(
            log.samples, gaps: log.gaps, useMagnetometer: !noMag, name: name, predict: predict, emit: emit)
        try file?.commit()
        let gaps = log.gaps.isEmpty ? "" : ", \(log.gaps.count) gap\(log.gaps.count == 1 ? "" : "s") not fused across"
        StandardStream.error.write(
            "fused \(log.samples.count) samples (\(log.hasMagnetometer && !noMag ? "9D" : "6D")) into \(output)\(gaps)\n"
        )
    }
}
