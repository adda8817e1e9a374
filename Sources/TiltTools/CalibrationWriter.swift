import FoundationEssentials
import TiltCore
import TiltSensors

/// Writes what `tilt calibrate` measured into a calibration file: a new one matched to this machine and sensor,
/// or, when asked, the sensor's section of an existing one (``CalibrationFileUpdate``).
package struct CalibrationWriter: Sendable {
    /// The file to write; `nil`: the user's `calibration.d` file for the sensor.
    package var output: String?
    /// Whether an existing file may be changed (its section for this sensor replaced).
    package var force: Bool
    /// Whether a file that matches every device may be written.
    package var matchAny: Bool
    /// The sensor's name (`nil`: the one the samples name) and label.
    package var name: String?
    /// See ``name``.
    package var label: String?
    /// Where the machine's DMI strings are read.
    package var dmiRoot: String
    /// Where a note about the match goes (standard error).
    package var note: @Sendable (String) -> Void

    /// A writer of `output` (see the properties).
    package init(
        output: String?, force: Bool, matchAny: Bool, name: String?, label: String?, dmiRoot: String,
        note: @escaping @Sendable (String) -> Void = { StandardStream.error.write(Data(($0 + "\n").utf8)) }
    ) {
        self.output = output
        self.force = force
        self.matchAny = matchAny
        self.name = name
        self.label = label
        self.dmiRoot = dmiRoot
        self.note = note
    }

    /// The machine's DMI strings with ``name`` (else `defaultName`) and ``label``.
    package func identity(defaultName: String?) -> CalibrationIdentity {
        CalibrationLoader.identity(dmiRoot: dmiRoot, name: name ?? defaultName, label: label)
    }

    /// Writes `update` applied to the output file's calibration (or a new one matched to this machine).
    ///
    /// A new file must name the device it is for: the machine's DMI strings or the sensor's name or label. One with
    /// no `[match]` keys would apply to every device, so it is written only with ``matchAny``.
    ///
    /// - Returns: The path written.
    /// - Throws: ``CalibrateError`` saying what is wrong with the file and what to do.
    package func write(
        device: CalibrationSampleFeed.Device, part: CalibrationFileUpdate.Part, summary: String,
        update: (inout Calibration) -> Void
    ) throws -> String {
        let identity = identity(defaultName: device.name)
        let path = output ?? CalibrationFileUpdate.defaultPath(for: identity)
        let stamp = Date().ISO8601Format()
        let isNew = !FileManager.default.fileExists(atPath: path)
        do {
            try CalibrationFileUpdate.write(
                to: path, identity: identity, replaceExisting: force, part: part, matchEveryDevice: matchAny,
                comment: ["\(part.command) at \(stamp) from \(device.origin)", summary], update: update)
        } catch .exists {
            throw CalibrateError(
                .output,
                "\(path) already exists; pass --force to replace its section for this sensor (the others are "
                    + "kept), or --output FILE to write elsewhere")
        } catch .matchesEveryDevice {
            throw CalibrateError(
                .output,
                "nothing identifies this device: no DMI strings in \(dmiRoot) and no sensor name or label "
                    + "(the samples do not say), so the file would apply to every device; pass --name NAME (see "
                    + "`tilt sensors`) or --label LABEL to match this sensor, or --match-any to write it for every "
                    + "device")
        } catch .unreadable(let error) {
            throw CalibrateError(.output, "cannot update \(error); fix or remove the file")
        } catch .unwritable(let error) {
            throw CalibrateError(.output, "\(error)")
        }
        if isNew, identity.sysVendor == nil, identity.productName == nil, identity.specificity > 0 {
            let keys = identity.keys.map { "\($0.key) '\($0.value)'" }.joined(separator: " and ")
            note("note: no DMI strings in \(dmiRoot): the file matches any machine whose sensor has \(keys)")
        }
        return path
    }

    /// What to tell after writing `path`: `SIGHUP` re-resolves the calibration, so a reload applies it.
    package static func applyHint(_ path: String) -> String {
        "wrote \(path); `systemctl reload tiltd` (or `kill -HUP` tiltd's pid) applies it, unless tiltd runs with "
            + "--no-calibration: then restart it without"
    }
}
