/// Which attitude a frame carries: what its earth frame's heading is tied to.
public enum AttitudeReference: String, Sendable, Hashable, Codable {
    /// 9D fusion: heading from the magnetometer, so earth x is east and y magnetic north.
    case magnetic
    /// 6D "game rotation" fusion, without the magnetometer: the heading is free (fixed at the filter's start) and
    /// drifts slowly; inclination is the same as 9D's.
    case game
}
