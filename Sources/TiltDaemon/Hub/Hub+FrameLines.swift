import TiltCore
import TiltWire

extension Hub {
    /// One frame's wire lines, one per screen rotation and prediction horizon, each predicted, turned and encoded
    /// the first time a client needs it: thousands of watchers cost one encoding per distinct (rotation, horizon)
    /// among them, at most four a frame for those that ask no prediction.
    struct FrameLines {
        let frame: AttitudeFrame
        /// The frame predicted `ms` milliseconds ahead, when the filter keeps that horizon.
        let predicted: [Int: AttitudeFrame]
        private var plain: [WireLine?] = [nil, nil, nil, nil]
        private var ahead: [Int: WireLine] = [:]

        init(_ frame: AttitudeFrame, predicted: [Int: AttitudeFrame] = [:]) {
            self.frame = frame
            self.predicted = predicted
        }

        /// The frame's line in the axes of `rotation`, predicted `horizon` milliseconds ahead (0: as fused).
        mutating func line(for rotation: ScreenRotation, horizon: Int = 0) -> WireLine {
            let slot = rotation.degrees / 90
            let key = horizon * 4 + slot
            if horizon > 0, let line = self.ahead[key] { return line }
            if horizon > 0, let ahead = predicted[horizon] {
                let line = WireLine(json: ServerMessage.encode(frame: rotation.picture(ahead)))
                self.ahead[key] = line
                return line
            }
            if let line = plain[slot] { return line }
            let line = WireLine(json: ServerMessage.encode(frame: rotation.picture(frame)))
            plain[slot] = line
            return line
        }
    }
}
