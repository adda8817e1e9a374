#if canImport(Glibc)
    import Glibc
#endif

/// Reads mains and battery state from the kernel's `power_supply` class in sysfs.
///
/// Every supply is a folder under ``root`` (`/sys/class/power_supply/AC`, `BAT0`, …) with a `type` file (`Mains`,
/// `USB`, `Battery`, …). Mains-like supplies say whether they are `online`; batteries give `status` (`Charging`,
/// `Discharging`, `Full`, `Not charging`) and `capacity` in percent. Batteries of peripherals (`scope` is `Device`,
/// e.g. a wireless mouse) are ignored. The kernel sends no change notification that a reader can wait on without
/// udev, so callers poll this (cheaply: a few small reads).
package struct PowerSupplyProbe: Sendable {
    /// What the supplies say.
    package struct Reading: Sendable, Hashable {
        /// No mains supply is online and a battery discharges (or mains supplies exist and none is online).
        package var onBattery: Bool
        /// The mean charge of the system batteries, in percent, if any reports it.
        package var capacity: Int?
        /// Whether any mains supply or system battery was found at all.
        package var found: Bool
    }

    /// The default sysfs folder.
    package static let defaultRoot = "/sys/class/power_supply"

    /// The folder holding one subfolder per supply.
    package var root: String

    /// Creates a probe of `root` (tests point it at a fake tree in a temporary folder).
    package init(root: String = PowerSupplyProbe.defaultRoot) {
        self.root = root
    }

    /// Reads every supply now. A missing or unreadable folder reads as "nothing found": mains power.
    package func read() -> Reading {
        var mainsSupplies = 0
        var mainsOnline = false
        var discharging = false
        var capacities: [Int] = []
        var batteries = 0
        for name in Self.entries(of: root) {
            let dir = root + "/" + name
            guard let type = Self.readAttribute(dir + "/type") else { continue }
            switch type {
            case "Battery":
                if Self.readAttribute(dir + "/scope") == "Device" { continue }
                batteries += 1
                if Self.readAttribute(dir + "/status") == "Discharging" { discharging = true }
                if let text = Self.readAttribute(dir + "/capacity"), let value = Int(text), (0...100).contains(value) {
                    capacities.append(value)
                }
            case "Mains", "USB", "USB_C", "USB_PD", "USB_PD_DRP", "Wireless":
                if Self.readAttribute(dir + "/scope") == "Device" { continue }
                mainsSupplies += 1
                if Self.readAttribute(dir + "/online") == "1" { mainsOnline = true }
            default:
                continue
            }
        }
        let onBattery = batteries > 0 && !mainsOnline && (discharging || mainsSupplies > 0)
        let capacity =
            capacities.isEmpty ? nil : Int((Double(capacities.reduce(0, +)) / Double(capacities.count)).rounded())
        return Reading(onBattery: onBattery, capacity: capacity, found: batteries + mainsSupplies > 0)
    }

    /// The names in `path`, without `.` and `..`; empty if it cannot be listed.
    static func entries(of path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// A small sysfs attribute, trimmed of white space; `nil` if missing, unreadable or empty.
    static func readAttribute(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        var count = 0
        while count < buffer.count {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            count += n
        }
        var text = Substring(String(decoding: buffer[..<count], as: UTF8.self))
        while let c = text.first, c.isWhitespace || c == "\0" { text = text.dropFirst() }
        while let c = text.last, c.isWhitespace || c == "\0" { text = text.dropLast() }
        return text.isEmpty ? nil : String(text)
    }
}
