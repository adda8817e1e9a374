import Foundation
import Testing
import TiltCore
import TiltTestKit

@testable import TiltMedia

/// The audio tests' namespace: `swift test --filter AudioTests` runs them all.
enum AudioTests {
    /// The frequency at the centre of spectrum bin `k` at `rate` samples per second: `k` whole periods in a window.
    static func binCentre(_ k: Int, rate: Int = 44100) -> Double {
        Double(k) * Double(rate) / Double(AudioSpectrum.windowSize)
    }

    /// `count` samples of a sine of `amplitude` at `frequency`, starting at phase 0.
    static func sine(_ frequency: Double, amplitude: Double, count: Int, rate: Int = 44100) -> [Float] {
        (0..<count).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / Double(rate))) }
    }

    /// Row 0 of `texels`: the spectrum.
    static func spectrum(_ texels: [UInt8]) -> [UInt8] { Array(texels[0..<AudioSpectrum.width]) }

    /// Row 1 of `texels`: the waveform.
    static func waveform(_ texels: [UInt8]) -> [UInt8] { Array(texels[AudioSpectrum.width...]) }

    /// The bin of the largest byte of `texels`' spectrum (the first, should several be equal).
    static func peak(_ texels: [UInt8]) -> Int {
        let row = spectrum(texels)
        return row.indices.max { row[$0] < row[$1] || (row[$0] == row[$1] && $0 > $1) }!
    }

    /// The byte WebAudio gives a bin of magnitude `magnitude` (`|X[k]| / N`).
    static func byte(magnitude: Double) -> Int {
        let scaled = 255.0 / 70.0 * (20 * log10(magnitude) + 100)
        return Int(min(255, max(0, scaled)))
    }
}

extension AudioTests {
    /// Shadertoy's sound texture from samples: the Blackman-windowed spectrum and the waveform bytes.
    @Suite struct AudioSpectrumTests {
        @Test func theTextureIs512By2BytesAndSilenceIsZeroAnd128() {
            #expect(AudioSpectrum.width * AudioSpectrum.height == 1024)
            let silence = AudioSpectrum.silence
            #expect(silence.count == 1024)
            #expect(AudioTests.spectrum(silence) == [UInt8](repeating: 0, count: 512))
            #expect(AudioTests.waveform(silence) == [UInt8](repeating: 128, count: 512))
            #expect(AudioSpectrum.texels([Float](repeating: 0, count: 1024)) == silence)
            #expect(AudioSpectrum.texels([]) == silence, "no samples: all padding")
            #expect(AudioSpectrum.texels([Float](repeating: 0, count: 5000)).count == 1024)
        }

        @Test func aSineAtABinCentrePeaksInItsBinWithTheBlackmanWindowsShape() {
            // 40 whole periods in the window, at 1% of full scale (no byte saturates).
            let amplitude = 0.01
            let texels = AudioSpectrum.texels(
                AudioTests.sine(AudioTests.binCentre(40), amplitude: amplitude, count: 1024))
            #expect(texels.count == 1024)
            #expect(AudioTests.peak(texels) == 40)
            let row = AudioTests.spectrum(texels)
            // A bin-centred sine under the window: A·a0/2 at its bin, A·a1/4 beside it, A·a2/4 two away, 0 beyond.
            let shape: [Double] = [0.08 / 4, 0.5 / 4, 0.42 / 2, 0.5 / 4, 0.08 / 4]
            let expected = shape.map { (gain: Double) -> Int in AudioTests.byte(magnitude: amplitude * gain) }
            for (offset, want) in zip(-2...2, expected) {
                #expect(abs(Int(row[40 + offset]) - want) <= 1, "bin \(40 + offset): \(row[40 + offset]), not \(want)")
            }
            #expect(expected == [94, 152, 169, 152, 94])
            for k in row.indices where abs(k - 40) > 4 {
                #expect(row[k] < 20, "bin \(k) far from the tone: \(row[k])")
            }
        }

        @Test func aFullScaleSinePeaksInItsBinToo() {
            // Saturated: the peak and its neighbours are 255, the bins far away still nothing.
            let texels = AudioSpectrum.texels(AudioTests.sine(AudioTests.binCentre(100), amplitude: 1, count: 1024))
            let row = AudioTests.spectrum(texels)
            #expect(row[100] == 255)
            #expect(row.indices.filter { abs($0 - 100) > 4 }.allSatisfy { row[$0] < 20 })
        }

        @Test func theWaveformRowIsTheFirstHalfOfTheWindowAsBytes() {
            /// The bytes of the waveform row of a window of `value`s.
            func row(of value: Float) -> Set<UInt8> {
                Set(AudioTests.waveform(AudioSpectrum.texels([Float](repeating: value, count: 1024))))
            }
            #expect(row(of: 1) == [255])
            #expect(row(of: -1) == [0])
            #expect(row(of: 0.5) == [192])
            #expect(row(of: -0.5) == [64])
            #expect(row(of: 0) == [128])
            #expect(row(of: 3) == [255] && row(of: -3) == [0], "past full scale: clamped")
            // A ramp: the row is the window's first 512 samples, not its last.
            let ramp = (0..<1024).map { Float($0) / 1024 - 0.5 }
            let row = AudioTests.waveform(AudioSpectrum.texels(ramp))
            #expect(row[0] == 64 && row[256] == 96 && row[511] == 127)
        }

        @Test func fullScaleDCFillsTheLowestBinsOnly() {
            // DC under the window: a0 at bin 0, a1/2 at bin 1, a2/2 at bin 2 (all above -30 dB: 255), nothing after.
            let row = AudioTests.spectrum(AudioSpectrum.texels([Float](repeating: 1, count: 1024)))
            #expect(Array(row[0..<3]) == [255, 255, 255])
            #expect(row[3...].allSatisfy { $0 == 0 }, "\(row[0..<8])")
            // At -60 dB: a0 → -67.5 dB, a1/2 → -72 dB, a2/2 → -88 dB.
            let quiet = AudioTests.spectrum(AudioSpectrum.texels([Float](repeating: 0.001, count: 1024)))
            let expected = [0.42, 0.25, 0.04].map { AudioTests.byte(magnitude: 0.001 * $0) }
            for k in 0..<3 {
                #expect(abs(Int(quiet[k]) - expected[k]) <= 1, "bin \(k): \(quiet[k]), not \(expected[k])")
            }
        }

        @Test func fewerSamplesArePaddedAtTheFrontAndMoreAreCutFromTheFront() {
            let half = AudioSpectrum.texels([Float](repeating: 0.5, count: 512))
            #expect(AudioTests.waveform(half).allSatisfy { $0 == 128 }, "the first 512 are the padding")
            let texels = AudioSpectrum.texels(
                [Float](repeating: 1, count: 1000) + [Float](repeating: -0.5, count: 1024))
            #expect(AudioTests.waveform(texels).allSatisfy { $0 == 64 }, "only the last 1024 count")
            let unsafe = [Float](repeating: -0.5, count: 2000).withUnsafeBufferPointer { AudioSpectrum.texels(of: $0) }
            #expect(unsafe == texels)
        }

        @Test func samplesThatAreNotNumbersCountAsSilence() {
            var samples = [Float](repeating: 0, count: 1024)
            samples[3] = .nan
            samples[700] = .infinity
            #expect(AudioSpectrum.texels(samples) == AudioSpectrum.silence)
        }

        @Test func theFFTIsTheDiscreteFourierTransform() {
            var random = SeededGenerator(seed: 7)
            let size = 64
            let tables = AudioSpectrum.FFTTables(size: size)
            let input = (0..<size).map { _ in Float.random(in: -1...1, using: &random) }
            var real = [Float](repeating: 0, count: size)
            var imaginary = [Float](repeating: 0, count: size)
            input.withUnsafeBufferPointer { samples in
                real.withUnsafeMutableBufferPointer { real in
                    imaginary.withUnsafeMutableBufferPointer { imaginary in
                        tables.load(samples.baseAddress!, intoBitReversed: real.baseAddress!)
                        tables.transform(real: real.baseAddress!, imaginary: imaginary.baseAddress!)
                    }
                }
            }
            for k in 0..<size {
                var (re, im) = (0.0, 0.0)
                for n in 0..<size {
                    let x = Double(input[n] * tables.window[n])
                    re += x * cos(2 * Double.pi * Double(k * n) / Double(size))
                    im -= x * sin(2 * Double.pi * Double(k * n) / Double(size))
                }
                #expect(abs(Double(real[k]) - re) < 1e-4 && abs(Double(imaginary[k]) - im) < 1e-4, "bin \(k)")
            }
            // WebAudio's Blackman window: 0 at the start, 1 in the middle (periodic: N in the denominator).
            #expect(abs(tables.window[0]) < 1e-6 && abs(tables.window[size / 2] - 1) < 1e-6)
        }
    }

    /// The ring of newest samples an ``AudioCapture`` keeps.
    @Suite struct AudioSampleRingTests {
        @Test func theNewestSamplesComeOutOldestFirstAcrossTheWrap() {
            var ring = SampleRing(capacity: 8)
            #expect(ring.newest(4) == [0, 0, 0, 0], "empty: zeros")
            (1...5).map(Float.init).withUnsafeBufferPointer { ring.append($0) }
            #expect(ring.newest(3) == [3, 4, 5])
            #expect(ring.newest(7) == [0, 0, 1, 2, 3, 4, 5], "padded at the front")
            (6...11).map(Float.init).withUnsafeBufferPointer { ring.append($0) }
            #expect(ring.newest(8) == [4, 5, 6, 7, 8, 9, 10, 11])
            #expect(ring.newest(10) == [0, 0, 4, 5, 6, 7, 8, 9, 10, 11], "no more than it holds")
            (100..<120).map(Float.init).withUnsafeBufferPointer { ring.append($0) }
            #expect(ring.newest(3) == [117, 118, 119], "more than the ring at once: the newest kept")
            ring.reserve(16)
            #expect(ring.capacity == 16)
            #expect(ring.newest(9) == [0, 112, 113, 114, 115, 116, 117, 118, 119])
            ring.removeAll()
            #expect(ring.newest(2) == [0, 0])
        }
    }
}
