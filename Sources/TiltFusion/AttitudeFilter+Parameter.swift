extension AttitudeFilter {
    /// A numeric setting of ``Configuration`` that may be tuned from outside (`tilt bench fusion --set NAME=…`):
    /// the time constants, rest and magnetic-disturbance thresholds, and limits.
    ///
    /// Listed here, beside ``Configuration``, so that a new setting is added to the list where it is declared.
    package struct Parameter: Sendable, CustomStringConvertible {
        /// The setting's Swift name, as written after `--set`.
        package let name: String
        /// The values that make sense, in ``unit``: a time constant the filter divides by is positive, a tolerance
        /// or threshold is not negative, and each is bounded where a larger value would switch its mechanism off in
        /// all but name. Outside the range the filter misbehaves or divides by zero rather than being tuned, so
        /// ``ConfigurationSweep`` refuses such a value.
        package let range: ClosedRange<Double>
        /// The unit of the value, for messages: `s`, `rad/s`, `m/s²`, `rad`, or `relative`.
        package let unit: String
        private let keyPath: any WritableKeyPath<Configuration, Double> & Sendable

        private init(
            _ name: String, _ keyPath: any WritableKeyPath<Configuration, Double> & Sendable,
            _ range: ClosedRange<Double>, _ unit: String
        ) {
            self.name = name
            self.keyPath = keyPath
            self.range = range
            self.unit = unit
        }

        package var description: String { name }

        /// `name must be from LOW to HIGH UNIT`, for a value outside ``range``.
        package var rangeDescription: String {
            "\(name) must be from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound)) \(unit)"
        }

        /// `1000` rather than `1000.0`; other values as Swift prints them.
        private static func text(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
        }

        /// The value in `configuration`.
        package func value(in configuration: Configuration) -> Double {
            configuration[keyPath: keyPath]
        }

        /// Sets the value in `configuration`.
        package func set(_ value: Double, in configuration: inout Configuration) {
            configuration[keyPath: keyPath] = value
        }

        /// Every tunable setting, in the order `--help` lists them.
        package static let all: [Parameter] = [
            Parameter("accelTimeConstant", \.accelTimeConstant, 0.01...1000, "s"),
            Parameter("magTimeConstant", \.magTimeConstant, 0.01...1000, "s"),
            Parameter("restBiasTimeConstant", \.restBiasTimeConstant, 0.01...1000, "s"),
            Parameter("motionBiasTimeConstant", \.motionBiasTimeConstant, 0.01...10000, "s"),
            Parameter("scaleTimeConstant", \.scaleTimeConstant, 0...1000, "s (0 turns it off)"),
            Parameter("scaleReferenceRate", \.scaleReferenceRate, 0.01...100, "rad/s"),
            Parameter("maxScaleError", \.maxScaleError, 0...0.5, "relative"),
            Parameter("maxBias", \.maxBias, 0...1, "rad/s"),
            Parameter("restGyroThreshold", \.restGyroThreshold, 0...1, "rad/s"),
            Parameter("restAccelThreshold", \.restAccelThreshold, 0...10, "m/s²"),
            Parameter("restMinimumDuration", \.restMinimumDuration, 0...600, "s"),
            Parameter("magNormTolerance", \.magNormTolerance, 0...1, "relative"),
            Parameter("magDipTolerance", \.magDipTolerance, 0...1.5708, "rad (π/2: 90°)"),
            Parameter("magNewFieldTime", \.magNewFieldTime, 0...3600, "s"),
            Parameter("magNewFieldRotation", \.magNewFieldRotation, 0...100, "rad"),
            Parameter("hardIronTimeConstant", \.hardIronTimeConstant, 0...1000, "s (0 turns it off)"),
            Parameter("hardIronTolerance", \.hardIronTolerance, 0...1, "relative"),
            Parameter("hardIronFollowTime", \.hardIronFollowTime, 0.01...1000, "s"),
            Parameter("magMaxHeadingRate", \.magMaxHeadingRate, 0.0001...100, "rad/s"),
            Parameter("headingDriftRate", \.headingDriftRate, 0...1, "rad/s"),
            Parameter("headingScaleUncertainty", \.headingScaleUncertainty, 0...0.5, "relative"),
            Parameter("headingAccuracyFloor", \.headingAccuracyFloor, 0...3.1416, "rad"),
            Parameter("sensorDelay", \.sensorDelay, 0...0.1, "s"),
        ]

        /// The parameter called `name`, or `nil`.
        package static func named(_ name: String) -> Parameter? {
            all.first { $0.name == name }
        }
    }
}
