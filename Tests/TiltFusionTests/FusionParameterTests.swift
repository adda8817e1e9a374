import Testing
import TiltCore
import TiltFusion

/// The tunable filter parameters and the configuration sweep of `tilt bench fusion --set`.
@Suite
struct FusionParameterTests {
    @Test("every parameter reads and writes its own setting, and no other")
    func eachParameterIsItsOwnSetting() {
        let all = AttitudeFilter.Parameter.all
        #expect(Set(all.map(\.name)).count == all.count, "names are unique")
        for (index, parameter) in all.enumerated() {
            var configuration = AttitudeFilter.Configuration()
            let marker = 1000 + Double(index)
            parameter.set(marker, in: &configuration)
            #expect(parameter.value(in: configuration) == marker)
            for other in all where other.name != parameter.name {
                #expect(other.value(in: configuration) == other.value(in: .init()), "\(parameter) moved \(other)")
            }
        }
    }

    @Test("every default lies within its parameter's range, and the ends of each range are accepted")
    func defaultsAreInRange() throws {
        let defaults = AttitudeFilter.Configuration()
        for parameter in AttitudeFilter.Parameter.all {
            #expect(parameter.range.contains(parameter.value(in: defaults)), "\(parameter)")
            let ends = "\(parameter)=\(parameter.range.lowerBound),\(parameter.range.upperBound)"
            #expect(try ConfigurationSweep(overrides: [ends]).variants.count == 2)
        }
    }

    @Test("parameters are found by name; unknown names are not")
    func lookUp() throws {
        let accel = try #require(AttitudeFilter.Parameter.named("accelTimeConstant"))
        var configuration = AttitudeFilter.Configuration()
        accel.set(2.5, in: &configuration)
        #expect(configuration.accelTimeConstant == 2.5)
        #expect(AttitudeFilter.Parameter.named("useMagnetometer") == nil, "only numeric settings are tunable")
        #expect(ConfigurationSweep.parameterNames.hasPrefix("accelTimeConstant, magTimeConstant, "))
    }

    @Test("no overrides give the default alone; several values of several parameters give every combination")
    func combinations() throws {
        let plain = try ConfigurationSweep(overrides: []).variants
        #expect(plain.count == 1 && plain[0].label.isEmpty)
        #expect(plain[0].configuration.accelTimeConstant == AttitudeFilter.Configuration().accelTimeConstant)

        let sweep = try ConfigurationSweep(overrides: ["accelTimeConstant=2,3", "maxBias=0.1,0.2,0.3"]).variants
        #expect(sweep.count == 6)
        #expect(sweep.map(\.label).first == "accelTimeConstant=2.0 maxBias=0.1")
        #expect(sweep.map(\.label).last == "accelTimeConstant=3.0 maxBias=0.3")
        #expect(sweep.map(\.configuration.accelTimeConstant) == [2, 2, 2, 3, 3, 3])
        #expect(sweep.map(\.configuration.maxBias) == [0.1, 0.2, 0.3, 0.1, 0.2, 0.3])
    }

    @Test(
        "malformed overrides are refused with a message that names them",
        arguments: [
            (
                "accelTimeConstant", ConfigurationSweep.ParseError.Kind.syntax,
                "--set accelTimeConstant: expected NAME=VALUE or NAME=V1,V2,…"
            ),
            (
                "speed=2", .unknownParameter,
                "--set speed=2: unknown parameter 'speed'; known: \(ConfigurationSweep.parameterNames)"
            ),
            ("maxBias=0.1,x", .notANumber, "--set maxBias=0.1,x: 'x' is not a number"),
            ("maxBias=inf", .notANumber, "--set maxBias=inf: 'inf' is not a number"),
            ("maxBias=", .syntax, "--set maxBias=: expected NAME=VALUE or NAME=V1,V2,…"),
            ("maxBias=,", .syntax, "--set maxBias=,: no value given"),
            (
                "accelTimeConstant=-1", .outOfRange,
                "--set accelTimeConstant=-1: -1 is out of range; accelTimeConstant must be from 0.01 to 1000 s"
            ),
            ("maxBias=0.1,5", .outOfRange, "--set maxBias=0.1,5: 5 is out of range; maxBias must be from 0 to 1 rad/s"),
        ])
    func refusals(override: String, kind: ConfigurationSweep.ParseError.Kind, message: String) {
        #expect { _ = try ConfigurationSweep(overrides: [override]) } throws: {
            ($0 as? ConfigurationSweep.ParseError)?.kind == kind
        }
        do {
            _ = try ConfigurationSweep(overrides: [override])
        } catch {
            #expect(error.message == message)
        }
    }
}
