import ArgumentParser
import Foundation
import TiltCore
import TiltFusion
import TiltSensors

struct Fuse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the daemon's fusion filter offline over a log, as fast as it can.",
        discussion: """
            Writes one CSV row per input sample: t,qw,qx,qy,qz (device → earth, ENU, Hamilton), then roll,pitch,yaw \
            (radians), tilt_x,tilt_y, the bias-corrected rotation rate, gravity, user acceleration and flags.
            """)

    @Option(name: .long, help: ArgumentHelp("The log to read (.csv or .csv.gz).", valueName: "LOG"))
    var input: String

    @Option(
        name: .long, help: ArgumentHelp("Where to write the fused CSV ('-' for standard output).", valueName: "OUT"))
    var output: String

    @Flag(name: .customLong("no-mag"), help: "Ignore the magnetometer (6D fusion).")
    var noMag = false

    @Flag(name: .long, help: "Replace the output file when it exists (never the input log).")
    var force = false

    @OptionGroup var badRows: StrictOption

    func run() async throws {
        // Refuse a bad output before any work; the fused rows go to a temporary file renamed into place at the end,
        // so a failed or interrupted run leaves an existing file as it was.
        let file = output == "-" ? nil : try AtomicFileOutput(path: output, replacing: force, inputs: [input])
        file?.discardOnInterrupt()
        // A log that cannot be read is an I/O failure: its error names the file and says what to check.
        let log = try badRows.read(input)
        var configuration = MotionPipeline.Configuration()
        configuration.filter.useMagnetometer = !noMag
        var pipeline = MotionPipeline(configuration: configuration)
        let emit: (String) throws -> Void
        if let file {
            emit = { try file.write($0) }
        } else {
            emit = { try StandardOutput.write($0) }
        }
        var text =
            "t,qw,qx,qy,qz,roll,pitch,yaw,tilt_x,tilt_y,rate_x,rate_y,rate_z,grav_x,grav_y,grav_z,user_x,user_y,user_z,rest,accel_disturbed,mag_disturbed\n"
        text.reserveCapacity(1 << 20)
        let name = "fuse:" + (input.split(separator: "/").last.map(String.init) ?? input)
        for sample in log.samples {
            let f = pipeline.process(sample, source: name)
            let q = f.quaternion
            let e = f.euler
            text +=
                "\(sample.time),\(q.w),\(q.x),\(q.y),\(q.z),\(e.roll),\(e.pitch),\(e.yaw),\(f.tilt.x),\(f.tilt.y),"
            text +=
                "\(f.rotationRate.x),\(f.rotationRate.y),\(f.rotationRate.z),\(f.gravity.x),\(f.gravity.y),\(f.gravity.z),"
            text += "\(f.userAcceleration.x),\(f.userAcceleration.y),\(f.userAcceleration.z),"
            text += "\(f.flags.rest ? 1 : 0),\(f.flags.accelDisturbed ? 1 : 0),\(f.flags.magDisturbed ? 1 : 0)\n"
            if text.utf8.count > 1 << 20 {
                try emit(text)
                text.removeAll(keepingCapacity: true)
            }
        }
        try emit(text)
        try file?.commit()
        FileHandle.standardError.write(
            "fused \(log.samples.count) samples (\(log.hasMagnetometer && !noMag ? "9D" : "6D")) into \(output)\n")
    }
}
