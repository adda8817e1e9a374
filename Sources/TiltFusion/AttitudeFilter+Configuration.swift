import TiltCore

extension AttitudeFilter {
    /// Filter parameters. Every default is a physical quantity (a time constant in seconds, a threshold in sensor
    /// units) chosen for consumer and research MEMS IMUs in general; none is fitted to any one recording.
    package struct Configuration: Sendable, Hashable {
        /// Use magnetometer readings when samples carry them.
        package var useMagnetometer: Bool
        /// Time constant of the accelerometer low-pass in the almost-inertial frame, s. Longer rejects more of the
        /// device's own acceleration; shorter follows gyroscope drift more tightly. 3 s spans the accelerations of
        /// hand and body motion, while MEMS gyroscope drift over 3 s stays well under a tenth of a degree.
        package var accelTimeConstant: Double
        /// Time constant of the magnetic heading correction, s. The magnetometer is noisier and more often disturbed
        /// than the accelerometer, so it gets a longer time constant.
        package var magTimeConstant: Double
        /// Time constant with which the bias follows the gyroscope mean at rest, s.
        package var restBiasTimeConstant: Double
        /// Time constant of the bias estimate in motion, s. Long, because the accelerometer's correction rates carry
        /// residual motion; bias changes with temperature over minutes.
        package var motionBiasTimeConstant: Double
        /// Time constant of the gyroscope scale-factor estimate during fast rotation, s (0 turns it off). Of the
        /// order of the low-pass, so that one bout of fast motion teaches it; the estimate is bounded by
        /// `maxScaleError`.
        package var scaleTimeConstant: Double
        /// Rotation rate below which the scale factors are hardly learned, rad/s (1 rad/s = 57 °/s: slower motion
        /// hardly shows a scale error, and the corrections are then dominated by other errors).
        package var scaleReferenceRate: Double
        /// Largest scale-factor error accepted per axis, relative (3 %: the sensitivity tolerance of consumer MEMS
        /// gyroscopes).
        package var maxScaleError: Double
        /// Largest bias magnitude accepted per axis, rad/s (MEMS gyroscopes: a few °/s at most).
        package var maxBias: Double
        /// Rest: largest RMS deviation (over a block) of the gyroscope from its short-term mean, rad/s (2 °/s: above
        /// sensor noise, below any deliberate motion).
        package var restGyroThreshold: Double
        /// Rest: largest RMS deviation (over a block) of the accelerometer from its short-term mean, m/s².
        package var restAccelThreshold: Double
        /// Rest: how long both must stay under their thresholds, s.
        package var restMinimumDuration: Double
        /// Magnetic disturbance: tolerated relative change of field strength (the Earth field is constant in a room).
        package var magNormTolerance: Double
        /// Magnetic disturbance: tolerated change of dip angle, rad.
        package var magDipTolerance: Double
        /// A new steady field replaces the reference after this many seconds…
        package var magNewFieldTime: Double
        /// …during which the device turned at least this far, rad.
        package var magNewFieldRotation: Double
        /// Time constant of the online hard-iron estimate, s: how long the readings it fits are remembered. Long
        /// enough to span turns about every axis, short enough that a magnet attached (or removed) is learned within
        /// seconds of turning (0 turns the estimate off).
        package var hardIronTimeConstant: Double
        /// The hard-iron estimate is trusted once its uncertainty and fit residual are both under this fraction of
        /// the Earth field's strength (relative), and replaces the offset in use when it differs from it by more than
        /// this fraction too (an offset much smaller averages out as the device turns, and one off by a fraction of
        /// a µT would turn the heading by degrees).
        package var hardIronTolerance: Double
        /// Time constant with which the offset in use follows a trusted estimate, s: the estimate's noise is averaged
        /// out, a new magnet is taken over within a few seconds.
        package var hardIronFollowTime: Double
        /// The magnetometer offset known at start, device frame, µT: what is left of the hard iron after the
        /// calibration applied before the filter (zero when a calibration file's `[magn]` section corrected the
        /// samples, or when there is none). The online estimate starts from it.
        package var magOffset: Vector3
        /// Largest rate at which the magnetometer turns the heading once it has converged, rad/s: after a
        /// disturbance the heading re-converges at this rate at most, without jumps.
        package var magMaxHeadingRate: Double
        /// Heading drift of the bias-corrected gyroscope while the magnetometer is not used, rad/s, for the heading
        /// accuracy reported with each frame; the scale-factor uncertainty adds `headingScaleUncertainty` of the
        /// rotation about earth up.
        package var headingDriftRate: Double
        /// The gyroscope's scale-factor uncertainty once learned, relative, for the heading accuracy (0.5 %).
        package var headingScaleUncertainty: Double
        /// The heading accuracy while the magnetometer corrects it, rad (noise and soft iron of a calibrated
        /// magnetometer in a steady field).
        package var headingAccuracyFloor: Double
        /// How long the sensor's readings trail the motion, s: MEMS sensors low-pass their readings on the chip, and
        /// that filter delays them by a millisecond or a few (its group delay). The reported orientation is carried
        /// this far ahead along the bias-corrected rotation rate, so that it is the orientation at the sample's
        /// timestamp rather than that delay before it (0 reports the integrated orientation as it is).
        package var sensorDelay: Double

        package init(
            useMagnetometer: Bool = true,
            accelTimeConstant: Double = 3.0,
            magTimeConstant: Double = 13.0,
            restBiasTimeConstant: Double = 2.0,
            motionBiasTimeConstant: Double = 60.0,
            scaleTimeConstant: Double = 10.0,
            scaleReferenceRate: Double = 1.0,
            maxScaleError: Double = 0.03,
            maxBias: Double = 0.1,
            restGyroThreshold: Double = 2.0 * .pi / 180,
            restAccelThreshold: Double = 0.5,
            restMinimumDuration: Double = 1.5,
            magNormTolerance: Double = 0.1,
            magDipTolerance: Double = 5.0 * .pi / 180,
            magNewFieldTime: Double = 20.0,
            magNewFieldRotation: Double = 2 * .pi,
            hardIronTimeConstant: Double = 5.0,
            hardIronTolerance: Double = 0.08,
            hardIronFollowTime: Double = 6.0,
            magOffset: Vector3 = .zero,
            magMaxHeadingRate: Double = 2.0 * .pi / 180,
            headingDriftRate: Double = 0.05 * .pi / 180,
            headingScaleUncertainty: Double = 0.005,
            headingAccuracyFloor: Double = 2.0 * .pi / 180,
            sensorDelay: Double = 0.002
        ) {
            self.useMagnetometer = useMagnetometer
            self.accelTimeConstant = accelTimeConstant
            self.magTimeConstant = magTimeConstant
            self.restBiasTimeConstant = restBiasTimeConstant
            self.motionBiasTimeConstant = motionBiasTimeConstant
            self.scaleTimeConstant = scaleTimeConstant
            self.scaleReferenceRate = scaleReferenceRate
            self.maxScaleError = maxScaleError
            self.maxBias = maxBias
            self.restGyroThreshold = restGyroThreshold
            self.restAccelThreshold = restAccelThreshold
            self.restMinimumDuration = restMinimumDuration
            self.magNormTolerance = magNormTolerance
            self.magDipTolerance = magDipTolerance
            self.magNewFieldTime = magNewFieldTime
            self.magNewFieldRotation = magNewFieldRotation
            self.hardIronTimeConstant = hardIronTimeConstant
            self.hardIronTolerance = hardIronTolerance
            self.hardIronFollowTime = hardIronFollowTime
            self.magOffset = magOffset
            self.magMaxHeadingRate = magMaxHeadingRate
            self.headingDriftRate = headingDriftRate
            self.headingScaleUncertainty = headingScaleUncertainty
            self.headingAccuracyFloor = headingAccuracyFloor
            self.sensorDelay = sensorDelay
        }
    }
}
