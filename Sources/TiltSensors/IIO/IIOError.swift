/// A failure talking to IIO sensors through libiio, with what went wrong, where, and what to do.
package struct IIOError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, for a caller to switch on.
    ///
    /// - `noContext`: no IIO context could be made for the URI
    /// - `noSensors`: the context has no usable motion sensors
    /// - `badFormat`: a channel's scan format could not be read
    /// - `badMountMatrix`: a device's mount matrix could not be read
    /// - `deviceLost`: the device went away
    /// - `io`: a read or a setting of the device failed
    /// - `busy`: another program holds the device's buffer
    package enum Kind: Sendable, Hashable {
        case noContext, noSensors, badFormat, badMountMatrix, deviceLost, io, busy
    }

    /// What went wrong, with the data the words are made of.
    private enum Detail: Equatable {
        case noContext(uri: String, errno: Int32)
        case noSensors(uri: String)
        case badFormat(String)
        case badMountMatrix(String)
        case deviceLost(device: String, errno: Int32)
        case io(device: String, what: String, errno: Int32)
        case busy(device: String)
    }

    private let detail: Detail

    /// What went wrong.
    package var kind: Kind {
        switch detail {
        case .noContext: .noContext
        case .noSensors: .noSensors
        case .badFormat: .badFormat
        case .badMountMatrix: .badMountMatrix
        case .deviceLost: .deviceLost
        case .io: .io
        case .busy: .busy
        }
    }

    package static func noContext(uri: String, errno: Int32) -> IIOError {
        IIOError(detail: .noContext(uri: uri, errno: errno))
    }
    package static func noSensors(uri: String) -> IIOError { IIOError(detail: .noSensors(uri: uri)) }
    package static func badFormat(_ text: String) -> IIOError { IIOError(detail: .badFormat(text)) }
    package static func badMountMatrix(_ text: String) -> IIOError { IIOError(detail: .badMountMatrix(text)) }
    package static func deviceLost(device: String, errno: Int32) -> IIOError {
        IIOError(detail: .deviceLost(device: device, errno: errno))
    }
    package static func io(device: String, what: String, errno: Int32) -> IIOError {
        IIOError(detail: .io(device: device, what: what, errno: errno))
    }

    /// The device's buffer is held by another reader (the kernel said `EBUSY`).
    package static func busy(device: String) -> IIOError { IIOError(detail: .busy(device: device)) }

    /// Whether another program holds the device's buffer, so polling its attributes is the way to read it now.
    package var isBusy: Bool {
        if case .busy = detail { return true }
        return false
    }

    /// Whether the device went away (or the context could not be made) and trying again later may work.
    package var isTransient: Bool {
        switch detail {
        case .deviceLost, .noSensors, .noContext: return true
        default: return false
        }
    }

    package var description: String {
        switch detail {
        case .noContext(let uri, let e):
            return "cannot open the IIO context '\(uri)' (\(errnoText(e))); for local: check that /sys/bus/iio exists "
                + "and is readable, for ip:HOST that iiod runs there"
        case .noSensors(let uri):
            return "no accelerometer (accel channels) found in the IIO context '\(uri)'; run `tilt sensors` to see "
                + "what is there, or use `tiltd --replay FILE`"
        case .badFormat(let t):
            return "cannot read the scan element type '\(t)'; expected e.g. 'le:s16/16>>0'"
        case .badMountMatrix(let t):
            return "cannot read the mount matrix '\(t)'; expected nine numbers as 'a, b, c; d, e, f; g, h, i'"
        case .deviceLost(let d, let e):
            return "the IIO device \(d) went away (\(errnoText(e))); it is searched for again with backoff"
        case .busy(let d):
            return "the IIO buffer of \(d) is busy: another program (often iio-sensor-proxy) reads /dev/\(d)"
        case .io(let d, let what, let e):
            return "cannot \(what) on the IIO device \(d) (\(errnoText(e))); check permissions on "
                + "/sys/bus/iio/devices/\(d) and /dev/\(d) (a udev rule or the iio group)"
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif

func errnoText(_ e: Int32) -> String {
    String(cString: strerror(e))
}
