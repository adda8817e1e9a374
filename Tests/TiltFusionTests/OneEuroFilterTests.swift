import Foundation
import Testing
import TiltFusion

@Suite struct OneEuroFilterTests {
    @Test func alphaMatchesThePaper() {
        // α = 1 / (1 + τ/Te), τ = 1/(2π fc): at fc = 1 Hz and Te = 0.01 s, α = 1 / (1 + 15.9155) = 0.059117.
        #expect(abs(OneEuroFilter.alpha(cutoff: 1, dt: 0.01) - 0.0591174) < 1e-6)
    }

    @Test func firstSamplePassesThroughAndConstantStaysConstant() {
        var f = OneEuroFilter()
        #expect(f.filter(3.5, at: 0) == 3.5)
        for i in 1...100 { #expect(f.filter(3.5, at: Double(i) * 0.01) == 3.5) }
    }

    @Test func withoutBetaItIsAFirstOrderLowPass() {
        // β = 0: the cutoff is fixed, so a step response follows 1 − (1−α)^n exactly.
        var f = OneEuroFilter(configuration: .init(minCutoff: 2, beta: 0, derivativeCutoff: 1))
        _ = f.filter(0, at: 0)
        let alpha = OneEuroFilter.alpha(cutoff: 2, dt: 0.01)
        for n in 1...50 {
            let y = f.filter(1, at: Double(n) * 0.01)
            #expect(abs(y - (1 - pow(1 - alpha, Double(n)))) < 1e-12)
        }
    }

    @Test func hand_computedSecondStep() {
        // Step 0→1 at dt = 0.01 with fc_min = 1, β = 0.5, dcutoff = 1:
        // dx = 100, α_d = 0.059117 → dx̂ = 5.9117; fc = 1 + 0.5·5.9117 = 3.9559; α = 1/(1 + 1/(2π·3.9559·0.01)) = 0.19908.
        var f = OneEuroFilter(configuration: .init(minCutoff: 1, beta: 0.5, derivativeCutoff: 1))
        _ = f.filter(0, at: 0)
        let y = f.filter(1, at: 0.01)
        let ad = OneEuroFilter.alpha(cutoff: 1, dt: 0.01)
        let expected = OneEuroFilter.alpha(cutoff: 1 + 0.5 * ad * 100, dt: 0.01)
        #expect(abs(y - expected) < 1e-12)
        #expect(abs(y - 0.19908) < 1e-4)
    }

    @Test func betaReducesLagInMotion() {
        func lag(beta: Double) -> Double {
            var f = OneEuroFilter(configuration: .init(minCutoff: 1, beta: beta, derivativeCutoff: 1))
            var worst = 0.0
            for i in 0...200 {
                let t = Double(i) * 0.01
                let x = 2 * t  // a ramp
                worst = max(worst, abs(f.filter(x, at: t) - x))
            }
            return worst
        }
        #expect(lag(beta: 1) < lag(beta: 0) / 2)
    }

    @Test func jitterAtRestIsSmoothed() {
        var f = OneEuroFilter(configuration: .init(minCutoff: 1, beta: 0.007, derivativeCutoff: 1))
        var maxOut = 0.0
        for i in 0..<500 {
            let noise = (i % 2 == 0 ? 1.0 : -1.0) * 0.01
            let y = f.filter(noise, at: Double(i) * 0.01)
            if i > 50 { maxOut = max(maxOut, abs(y)) }
        }
        #expect(maxOut < 0.002, "alternating ±0.01 noise came out as ±\(maxOut)")
    }

    @Test func badTimestampsAndValuesDoNotPoison() {
        var f = OneEuroFilter()
        _ = f.filter(1, at: 1)
        #expect(f.filter(5, at: 1) == 1)  // repeated time
        #expect(f.filter(5, at: 0.5) == 1)  // backwards
        #expect(f.filter(.nan, at: 2) == 1)
        #expect(f.filter(1, at: .infinity) == 1)
        #expect(f.filter(2, at: 3).isFinite)
    }
}
