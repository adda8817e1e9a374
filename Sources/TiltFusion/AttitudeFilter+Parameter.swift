extension AttitudeFilter {
    /// A numeric setting of ``Configuration`` that may be tuned from outside (`tilt bench fusion --set NAME=…`):
    /// the time constants, rest and magnetic-disturbance thresholds, and limits.
    ///
    /// Listed here, beside ``Configuration``, so that a new setting is added to the list where it is declared.
    public struct Parameter: Sendable, CustomStringConvertible {
        /// The setting's Swift name, as written after `--set`.
        public let name: String
        private let keyPath: any WritableKeyPath<Configuration, Double> & Sendable

        private init(_ name: String, _ keyPath: any WritableKeyPath<Configuration, Double> & Sendable) {
            self.name = name
            self.keyPath = keyPath
        }

        public var description: String { name }

        /// The value in `configuration`.
        public func value(in configuration: Configuration) -> Double {
            configuration[keyPath: keyPath]
        }

        /// Sets the value in `configuration`.
        public func set(_ value: Double, in configuration: inout Configuration) {
            configuration[keyPath: keyPath] = value
        }

        /// Every tunable setting, in the order `--help` lists them.
        public static let all: [Parameter] = [
            Parameter("accelTimeConstant", \.accelTimeConstant),
            Parameter("magTimeConstant", \.magTimeConstant),
            Parameter("restBiasTimeConstant", \.restBiasTimeConstant),
            Parameter("motionBiasTimeConstant", \.motionBiasTimeConstant),
            Parameter("scaleTimeConstant", \.scaleTimeConstant),
            Parameter("scaleReferenceRate", \.scaleReferenceRate),
            Parameter("maxScaleError", \.maxScaleError),
            Parameter("maxBias", \.maxBias),
            Parameter("restGyroThreshold", \.restGyroThreshold),
            Parameter("restAccelThreshold", \.restAccelThreshold),
            Parameter("restMinimumDuration", \.restMinimumDuration),
            Parameter("magNormTolerance", \.magNormTolerance),
            Parameter("magDipTolerance", \.magDipTolerance),
            Parameter("magNewFieldTime", \.magNewFieldTime),
            Parameter("magNewFieldRotation", \.magNewFieldRotation),
        ]

        /// The parameter called `name`, or `nil`.
        public static func named(_ name: String) -> Parameter? {
            all.first { $0.name == name }
        }
    }
}
