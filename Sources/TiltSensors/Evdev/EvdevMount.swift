/// How an evdev motion sensor's axes turn into tilt's device frame (x right, y to the top, z out of the screen; see
/// docs/coordinates.md), before any calibration file's `[mount]`.
///
/// Drivers report a controller's motion in the controller's own axes, as SDL's gamepad sensors do: x to the right,
/// y up out of its face (the buttons' side), z toward the player. tilt takes a controller lying flat, face up, its top
/// edge away from the player, like a phone lying flat: device x = controller x, device y = −controller z, device
/// z = controller y. A laptop's accelerometer (lis3lv02d, no gyroscope) already reports the machine's axes.
package enum EvdevMount: String, Sendable, Codable, CaseIterable {
    /// A game controller (a device with a gyroscope): `1, 0, 0; 0, 0, -1; 0, 1, 0`.
    case controller
    /// A machine's own accelerometer (no gyroscope): the identity.
    case identity

    /// The mount of a device: `controller` when it has a gyroscope, else `identity`.
    package init(hasGyroscope: Bool) {
        self = hasGyroscope ? .controller : .identity
    }

    /// The matrix taking the device's evdev axes to the device frame (`v_device = M·v_evdev`).
    package var matrix: IIOMountMatrix {
        switch self {
        case .controller: IIOMountMatrix(rows: [1, 0, 0, 0, 0, -1, 0, 1, 0])
        case .identity: .identity
        }
    }
}
