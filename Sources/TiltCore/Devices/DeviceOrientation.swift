/// Which edge of the screen is up, as iio-sensor-proxy names it (`AccelerometerOrientation`), and the wire carries it.
///
/// In the device frame (x to the screen's right, y to its top, z out of the screen), gravity points along −y for
/// ``normal``, +y for ``bottomUp``, +x for ``leftUp`` (the left edge is up) and −x for ``rightUp``.
///
/// - ``undefined``: not known yet: no sample, or the device has lain flat since the start
/// - ``normal``: the top edge up: the way the screen is meant to be read
/// - ``bottomUp``: upside down
/// - ``leftUp``: turned a quarter clockwise: the left edge up
/// - ``rightUp``: turned a quarter anticlockwise: the right edge up
public enum DeviceOrientation: String, Sendable, CaseIterable, Codable {
    case undefined, normal, bottomUp = "bottom-up", leftUp = "left-up", rightUp = "right-up"
}

/// How far the screen faces up or down, as iio-sensor-proxy names it (`AccelerometerTilt`).
///
/// - ``undefined``: not known yet
/// - ``vertical``: the screen stands upright (within about 22° of vertical)
/// - ``tiltedUp``: leaning back: the screen faces the sky at a slant
/// - ``tiltedDown``: leaning forward: the screen faces the floor at a slant
/// - ``faceUp``: lying flat, screen up
/// - ``faceDown``: lying flat, screen down
public enum DeviceTilt: String, Sendable, CaseIterable, Codable {
    case undefined, vertical, tiltedUp = "tilted-up", tiltedDown = "tilted-down"
    case faceUp = "face-up", faceDown = "face-down"
}
