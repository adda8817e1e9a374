import TiltCore

/// Configurations of the attitude filter to compare: every combination of a few values of a few
/// ``AttitudeFilter/Parameter``s (a sensitivity check, `tilt bench fusion --set accelTimeConstant=2,3,4`).
package struct ConfigurationSweep: Sendable {
    /// One configuration to score, and how it differs from the default.
    package struct Variant: Sendable {
        package var configuration: AttitudeFilter.Configuration
        /// `name=value` for each parameter set, separated by spaces; empty for the default.
        package var label: String
    }

    /// A malformed `NAME=V1,V2,…` override; the message names it and says what was expected.
    package typealias ParseError = TiltError<ParseErrorKind>

    /// What is wrong with an override.
    ///
    /// - `syntax`: not `NAME=VALUE` or `NAME=V1,V2,…`, or no value
    /// - `unknownParameter`: a name that is not a tunable parameter
    /// - `notANumber`: a value that is not a finite number
    /// - `outOfRange`: a value outside the parameter's range
    package enum ParseErrorKind: Sendable, Hashable {
        case syntax, unknownParameter, notANumber, outOfRange
    }

    /// The configurations, in order: the first override's values vary slowest.
    package let variants: [Variant]

    /// Every combination of the `NAME=V1,V2,…` overrides applied to `base`; `base` alone when there are none.
    ///
    /// - Throws: ``ParseError`` for an override without `=`, an unknown name, a value that is not a finite number
    ///   or lies outside the parameter's ``AttitudeFilter/Parameter/range``, or no value.
    package init(overrides: [String], base: AttitudeFilter.Configuration = .init()) throws(ParseError) {
        var variants = [Variant(configuration: base, label: "")]
        for text in overrides {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                throw ParseError(.syntax, "--set \(text): expected NAME=VALUE or NAME=V1,V2,…")
            }
            guard let parameter = AttitudeFilter.Parameter.named(parts[0]) else {
                throw ParseError(
                    .unknownParameter,
                    "--set \(text): unknown parameter '\(parts[0])'; known: \(Self.parameterNames)")
            }
            var values: [Double] = []
            for item in parts[1].split(separator: ",") {
                guard let value = Double(item), value.isFinite else {
                    throw ParseError(.notANumber, "--set \(text): '\(item)' is not a number")
                }
                guard parameter.range.contains(value) else {
                    throw ParseError(
                        .outOfRange,
                        "--set \(text): \(item) is out of range; \(parameter.rangeDescription)")
                }
                values.append(value)
            }
            guard !values.isEmpty else { throw ParseError(.syntax, "--set \(text): no value given") }
            variants = variants.flatMap { base in
                values.map { value in
                    var v = base
                    parameter.set(value, in: &v.configuration)
                    v.label += (v.label.isEmpty ? "" : " ") + "\(parameter.name)=\(value)"
                    return v
                }
            }
        }
        self.variants = variants
    }

    /// The names an override may use, comma-separated (for `--help` and error messages).
    package static var parameterNames: String {
        AttitudeFilter.Parameter.all.map(\.name).joined(separator: ", ")
    }
}
