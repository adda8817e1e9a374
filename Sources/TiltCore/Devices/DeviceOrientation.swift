/// Which edge of the screen is up, as iio-sensor-proxy names it (`AccelerometerOrientation`), and the wire carries it.
///
/// In the device frame (x to the screen's right, y to its top, z out of the screen), gravity points along −y for
/// ``normal``, +y for ``bottomUp``, +x for ``leftUp`` (the left edge is up) and −x for ``rightUp``.
public enum DeviceOrientation: String, Sendable, CaseIterable, Codable {
    /// Not known yet: no sample, or the device has lain flat since the start.
    case undefined
    /// The top edge up: the way the screen is meant to be read.
    case normal
    /// Upside down.
    case bottomUp = "bottom-up"
    /// Turned a quarter clockwise: the left edge up.
    case leftUp = "left-up"
    /// Turned a quarter anticlockwise: the right edge up.
    case rightUp = "right-up"
}

/// How far the screen faces up or down, as iio-sensor-proxy names it (`AccelerometerTilt`).
public enum DeviceTilt: String, Sendable, CaseIterable, Codable {
    /// Not known yet.
    case undefined
    /// The screen stands upright (within about 22° of vertical).
    case vertical
    /// Leaning back: the screen faces the sky at a slant.
    case tiltedUp = "tilted-up"
    /// Leaning forward: the screen faces the floor at a slant.
    case tiltedDown = "tilted-down"
    /// Lying flat, screen up.
    case faceUp = "face-up"
    /// Lying flat, screen down.
    case faceDown = "face-down"
}
