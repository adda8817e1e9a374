import TiltCore

/// The device's discrete orientation and tilt, as the `orientation` event and `status.orientation` carry them.
///
/// The values are iio-sensor-proxy's strings (``DeviceOrientation``, ``DeviceTilt``); they stay text here so that a
/// client reads a value a newer daemon adds instead of failing.
public struct WireOrientation: WireMessage, Codable {
    public static var messageClass: MessageClass { .orientation }

    /// `undefined`, `normal`, `bottom-up`, `left-up` or `right-up`.
    public var orientation: String
    /// `undefined`, `vertical`, `tilted-up`, `tilted-down`, `face-up` or `face-down`.
    public var tilt: String

    public init(orientation: String, tilt: String) {
        self.orientation = orientation
        self.tilt = tilt
    }

    public init(_ orientation: DeviceOrientation, _ tilt: DeviceTilt) {
        self.init(orientation: orientation.rawValue, tilt: tilt.rawValue)
    }

    public func writeFields(into w: inout JSONWriter) {
        w.field("orientation", orientation)
        w.field("tilt", tilt)
    }
}
