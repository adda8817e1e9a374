import TiltCore
import TiltWire

extension Hub {
    /// One frame's wire lines, one per screen rotation, each turned and encoded the first time a client needs it:
    /// thousands of watchers cost at most four encodings a frame.
    struct FrameLines {
        let frame: AttitudeFrame
        private var lines: [WireLine?] = [nil, nil, nil, nil]

        init(_ frame: AttitudeFrame) {
            self.frame = frame
        }

        /// The frame's line in the axes of `rotation`.
        mutating func line(for rotation: ScreenRotation) -> WireLine {
            let slot = rotation.degrees / 90
            if let line = lines[slot] { return line }
            let line = WireLine(json: ServerMessage.encode(frame: rotation.picture(frame)))
            lines[slot] = line
            return line
        }
    }
}
