/// A failure finding or reading an evdev motion sensor, with what went wrong, where, and what to do.
package struct EvdevError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, for a caller to switch on.
    ///
    /// - `noDevice`: no motion-sensor event node was found (`--evdev` without a path)
    /// - `missing`: the path names nothing (yet)
    /// - `notMotionSensor`: the path is an input device without `INPUT_PROP_ACCELEROMETER` or accelerometer axes
    /// - `permission`: the node cannot be opened for reading (`EACCES`, `EPERM`)
    /// - `deviceLost`: the device went away while read (unplugged)
    /// - `io`: another failure opening or reading the device
    package enum Kind: Sendable, Hashable {
        case noDevice, missing, notMotionSensor, permission, deviceLost, io
    }

    private enum Detail: Equatable {
        case noDevice(searched: String, others: [String])
        case missing(path: String)
        case notMotionSensor(path: String, name: String?, why: String)
        case permission(path: String, errno: Int32)
        case deviceLost(path: String, errno: Int32)
        case io(path: String, what: String, errno: Int32)
    }

    private let detail: Detail

    /// What went wrong.
    package var kind: Kind {
        switch detail {
        case .noDevice: .noDevice
        case .missing: .missing
        case .notMotionSensor: .notMotionSensor
        case .permission: .permission
        case .deviceLost: .deviceLost
        case .io: .io
        }
    }

    /// No motion sensor among the event nodes listed in `searched` (a folder); `others` are the input devices that
    /// were there but are not motion sensors, by name.
    package static func noDevice(searched: String, others: [String]) -> EvdevError {
        EvdevError(detail: .noDevice(searched: searched, others: others))
    }
    package static func missing(path: String) -> EvdevError { EvdevError(detail: .missing(path: path)) }
    package static func notMotionSensor(path: String, name: String?, why: String) -> EvdevError {
        EvdevError(detail: .notMotionSensor(path: path, name: name, why: why))
    }
    package static func permission(path: String, errno: Int32) -> EvdevError {
        EvdevError(detail: .permission(path: path, errno: errno))
    }
    package static func deviceLost(path: String, errno: Int32) -> EvdevError {
        EvdevError(detail: .deviceLost(path: path, errno: errno))
    }
    package static func io(path: String, what: String, errno: Int32) -> EvdevError {
        EvdevError(detail: .io(path: path, what: what, errno: errno))
    }

    /// Whether waiting may help: the device went away or is not there yet (a controller to be plugged in).
    package var isTransient: Bool {
        switch detail {
        case .deviceLost, .missing, .noDevice: true
        default: false
        }
    }

    package var description: String {
        switch detail {
        case .noDevice(let searched, let others):
            let seen =
                others.isEmpty
                ? "no input devices there"
                : "input devices there, none a motion sensor: \(others.prefix(8).joined(separator: "; "))"
            return "no evdev motion sensor (INPUT_PROP_ACCELEROMETER) found in \(searched) (\(seen)); connect a "
                + "controller (DualSense, DualShock 4, Switch Pro or Joy-Con, Steam Deck) by USB or Bluetooth and "
                + "check that its driver (hid-playstation, hid-sony, hid-nintendo, hid-steam) is loaded, or pass "
                + "--evdev /dev/input/eventN; `tilt sensors` lists what is there"
        case .missing(let path):
            return "\(path) does not exist; connect the device, or run `tilt sensors` to see the motion sensors' "
                + "event nodes (numbers change when a device is plugged in again: /dev/input/by-id links do not)"
        case .notMotionSensor(let path, let name, let why):
            let named = name.map { " (\($0))" } ?? ""
            return "\(path)\(named) is not a motion sensor: \(why); a controller's motion sensors are a separate "
                + "event node named \"… Motion Sensors\": run `tilt sensors` to find it, or use --evdev alone"
        case .permission(let path, let e):
            return "cannot open \(path) for reading (\(errnoText(e))); add the daemon's user to the group that owns "
                + "it (`ls -l \(path)`, usually input), or give it access with a udev rule such as "
                + "SUBSYSTEM==\"input\", KERNEL==\"event*\", ATTRS{properties}==\"40\", GROUP=\"tilt\", MODE=\"0640\""
        case .deviceLost(let path, let e):
            return "the evdev device \(path) went away (\(errnoText(e))); it is searched for again with backoff"
        case .io(let path, let what, let e):
            return "cannot \(what) \(path) (\(errnoText(e))); check that it is an evdev node (/dev/input/eventN)"
        }
    }
}
