import TiltCore
import TiltFusion
import TiltSensors

/// `tilt fuse`'s output: the daemon's pipeline run over every sample of a log, one CSV row per sample.
package enum FusedCSV {
    /// The header line: time, quaternion (device → earth, ENU, Hamilton), Euler angles and tilt (radians), the
    /// bias-corrected rotation rate, gravity, user acceleration and the flags.
    package static let header =
        "t,qw,qx,qy,qz,roll,pitch,yaw,tilt_x,tilt_y,rate_x,rate_y,rate_z,grav_x,grav_y,grav_z,user_x,user_y,user_z,rest,accel_disturbed,mag_disturbed\n"

    /// The row of `frame`, fused from a sample at `time`, with its newline.
    package static func row(time: Double, _ f: AttitudeFrame) -> String {
        let q = f.quaternion
        let e = f.euler
        var text = "\(time),\(q.w),\(q.x),\(q.y),\(q.z),\(e.roll),\(e.pitch),\(e.yaw),\(f.tilt.x),\(f.tilt.y),"
        text +=
            "\(f.rotationRate.x),\(f.rotationRate.y),\(f.rotationRate.z),\(f.gravity.x),\(f.gravity.y),\(f.gravity.z),"
        text += "\(f.userAcceleration.x),\(f.userAcceleration.y),\(f.userAcceleration.z),"
        text += "\(f.flags.rest ? 1 : 0),\(f.flags.accelDisturbed ? 1 : 0),\(f.flags.magDisturbed ? 1 : 0)\n"
        return text
    }

    /// Fuses `samples` (with the magnetometer when `useMagnetometer`) as the source `name`, handing the header and
    /// rows to `emit` in chunks of about a megabyte.
    ///
    /// - Parameter gaps: The log's gaps by the index of the sample after each (``SensorLog/gaps``): the filter is
    ///   not fed the jump (``MotionPipeline/markGap()``); the rows keep the log's own times.
    /// - Parameter predict: Seconds ahead (whole milliseconds, 0 … 0.1): each row's attitude, gravity and tilt are
    ///   those predicted for its time plus this (``MotionPipeline/predictedFrame(_:horizon:)``); its `t` stays the
    ///   sample's time. 0 writes the attitude as fused.
    package static func fuse(
        _ samples: [MotionSample], gaps: [Int: SampleGap] = [:], useMagnetometer: Bool, name: String,
        predict: Double = 0, emit: (String) throws -> Void
    ) throws {
        var configuration = MotionPipeline.Configuration()
        configuration.filter.useMagnetometer = useMagnetometer
        var pipeline = MotionPipeline(configuration: configuration)
        let milliseconds = Int((min(max(predict, 0), AttitudePredictor.maxHorizon) * 1000).rounded())
        if milliseconds > 0 { pipeline.predictionHorizons = [milliseconds] }
        var text = header
        text.reserveCapacity(1 << 20)
        for (index, sample) in samples.enumerated() {
            if gaps[index] != nil { pipeline.markGap() }
            let frame = pipeline.process(sample, source: name)
            text += row(
                time: sample.time,
                milliseconds > 0 ? pipeline.predictedFrame(frame, horizon: Double(milliseconds) / 1000) : frame)
            if text.utf8.count > 1 << 20 {
                try emit(text)
                text.removeAll(keepingCapacity: true)
            }
        }
        try emit(text)
    }
}
