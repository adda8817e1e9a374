import TiltCore

/// Corrections for one device's inertial sensors, applied to every sample before fusion.
///
/// Each correction works in the frame of the samples it receives (the source's device frame, after the kernel's
/// mount matrix); the calibration's own ``mount`` matrix is applied last, to all three sensors:
///
/// - accelerometer: `R·M·(a − offset)`
/// - gyroscope: `R·(ω − bias)`
/// - magnetometer: `R·S·(m − hardIron)`
///
/// where `R` is ``mount``, `M` ``accelMatrix`` (scale and misalignment) and `S` ``magSoftIron``. A section that a
/// file leaves out keeps the identity (zero offsets, identity matrices).
package struct Calibration: Hashable, Sendable {
    /// Which devices the calibration is for; all keys that are set must agree.
    package var match: CalibrationMatch
    /// A free-text note from the file's `description` key.
    package var description: String?
    /// The extra mount matrix `R`, applied after the per-sensor corrections.
    package var mount: Matrix3
    /// Accelerometer offset, m/s², subtracted first.
    package var accelOffset: Vector3
    /// Accelerometer scale and misalignment `M`.
    package var accelMatrix: Matrix3
    /// Gyroscope bias, rad/s.
    package var gyroBias: Vector3
    /// Magnetometer hard-iron offset, µT.
    package var magHardIron: Vector3
    /// Magnetometer soft-iron matrix `S`.
    package var magSoftIron: Matrix3

    /// A calibration that changes nothing, for any device unless `match` says otherwise.
    package init(
        match: CalibrationMatch = .init(), description: String? = nil, mount: Matrix3 = .identity,
        accelOffset: Vector3 = .zero, accelMatrix: Matrix3 = .identity, gyroBias: Vector3 = .zero,
        magHardIron: Vector3 = .zero, magSoftIron: Matrix3 = .identity
    ) {
        self.match = match
        self.description = description
        self.mount = mount
        self.accelOffset = accelOffset
        self.accelMatrix = accelMatrix
        self.gyroBias = gyroBias
        self.magHardIron = magHardIron
        self.magSoftIron = magSoftIron
    }

    /// The corrected sample; time is unchanged.
    package func apply(_ s: MotionSample) -> MotionSample {
        MotionSample(
            time: s.time,
            gyro: mount.apply(s.gyro - gyroBias),
            accel: mount.apply(accelMatrix.apply(s.accel - accelOffset)),
            mag: s.mag.map { mount.apply(magSoftIron.apply($0 - magHardIron)) })
    }
}

/// The keys of a calibration file's `[match]` section: which machine and which sensor it was made for.
package struct CalibrationMatch: Hashable, Sendable {
    /// DMI `sys_vendor` (`/sys/class/dmi/id/sys_vendor`).
    package var sysVendor: String?
    /// DMI `product_name`.
    package var productName: String?
    /// The IIO device's name (its driver), e.g. `bmi160`.
    package var name: String?
    /// The IIO device's `label`, e.g. `accel-display`.
    package var label: String?

    package init(sysVendor: String? = nil, productName: String? = nil, name: String? = nil, label: String? = nil) {
        self.sysVendor = sysVendor
        self.productName = productName
        self.name = name
        self.label = label
    }

    /// The keys that are set, as `(file key, value)` pairs in file order.
    package var keys: [(key: String, value: String)] {
        [("sys_vendor", sysVendor), ("product_name", productName), ("name", name), ("label", label)]
            .compactMap { k, v in v.map { (k, $0) } }
    }

    /// How specific the match is: the number of keys that are set (0 matches any device).
    package var specificity: Int { keys.count }

    /// Whether every key that is set agrees with `identity` (values compared after trimming white space).
    ///
    /// - Returns: `nil` when all agree, else the first key that does not, with what the device has.
    package func disagreement(with identity: CalibrationIdentity) -> String? {
        let have = Dictionary(uniqueKeysWithValues: identity.keys.map { ($0.key, $0.value) })
        for (key, wanted) in keys {
            let actual = have[key]
            guard let actual, actual.trimmingIIOWhitespace() == wanted.trimmingIIOWhitespace() else {
                return "\(key)=\(wanted) but the device has \(actual.map { "'\($0)'" } ?? "none")"
            }
        }
        return nil
    }
}

/// What the machine and its sensor are, to pick a calibration file: DMI strings and the IIO device.
///
/// The same four keys as a file's `[match]` section, so one type serves both: a file's match is compared with the
/// device's identity key by key (``CalibrationMatch/disagreement(with:)``), and a new file is matched to the
/// identity it was made on.
package typealias CalibrationIdentity = CalibrationMatch
