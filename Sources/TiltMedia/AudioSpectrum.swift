#if canImport(Glibc)
    import Glibc
#endif

/// Shadertoy's sound texture for music and microphone channels: 512 × 2 single-byte texels, computed the way a
/// browser's WebAudio `AnalyserNode` does for Shadertoy, so that a shader written against the site sees the same
/// bytes.
///
/// ```swift
/// let bytes = AudioSpectrum.texels(track.window(endingAt: time))   // 1024 bytes: upload as a 512×2 R8 texture
/// ```
///
/// Row 0 (`y = 0`, the first 512 bytes) is the spectrum: the last ``windowSize`` samples under a Blackman window,
/// a 1024-point FFT, bins 0..<512 (bin `k` is `k · rate / 1024` Hz), each magnitude `|X[k]| / 1024` in decibels
/// mapped linearly from ``minDecibels`` (→ 0) to ``maxDecibels`` (→ 255), clamped and truncated, as
/// `getByteFrequencyData` gives it with a `smoothingTimeConstant` of 0 (tilt keeps no state between frames, so that
/// an offline render is the same whatever frames came before). Row 1 (the next 512 bytes) is the waveform: the first
/// 512 of those samples as `128 + 128·x`, clamped to 0…255 and truncated, as `getByteTimeDomainData` gives them.
///
/// The work is one 1024-point radix-2 FFT over tables computed once (the window, the twiddle factors, the
/// bit-reversed order); nothing is allocated per call but the returned array (the scratch is on the stack).
package enum AudioSpectrum {
    /// Texels in a row: the spectrum's bins, and waveform samples.
    package static let width = 512
    /// Rows: the spectrum (0) and the waveform (1).
    package static let height = 2
    /// Samples analysed per frame (WebAudio `AnalyserNode`'s `fftSize` that Shadertoy uses).
    package static let windowSize = 1024
    /// The level that maps to byte 0 of the spectrum (WebAudio's default `minDecibels`).
    package static let minDecibels: Float = -100
    /// The level that maps to byte 255 of the spectrum (WebAudio's default `maxDecibels`).
    package static let maxDecibels: Float = -30

    /// Row 0: the magnitude spectrum of the last ``windowSize`` samples (Blackman window, FFT size 1024, bins
    /// 0..<512, magnitude in dB mapped linearly from -100 dB → 0 to -30 dB → 255, clamped), as WebAudio's
    /// `getByteFrequencyData` without its time smoothing; row 1: the first 512 of those samples as bytes,
    /// `128 + 128·x` clamped to 0…255 (`getByteTimeDomainData`).
    /// - Parameter samples: mono, in -1…1; fewer than ``windowSize`` are zero-padded at the front, of more only the
    ///   last ``windowSize`` count. A sample that is not finite (NaN, infinity) counts as 0.
    /// - Returns: ``width`` · ``height`` bytes, row 0 first.
    package static func texels(_ samples: [Float]) -> [UInt8] {
        samples.withUnsafeBufferPointer { texels(of: $0) }
    }

    /// ``texels(_:)`` of samples in memory (a ring buffer's, a decoded track's), without copying them to an array.
    package static func texels(of samples: UnsafeBufferPointer<Float>) -> [UInt8] {
        let n = windowSize
        let tables = FFTTables.shared
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * n) { scratch in
            let base = scratch.baseAddress!
            // The window of samples, zero-padded at the front.
            let window = base
            let real = base + n
            let imaginary = base + 2 * n
            let given = min(samples.count, n)
            let padding = n - given
            window.initialize(repeating: 0, count: padding)
            if let source = samples.baseAddress {
                let start = source + (samples.count - given)
                for i in 0..<given {
                    let x = start[i]
                    (window + padding + i).initialize(to: x.isFinite ? x : 0)
                }
            }
            imaginary.initialize(repeating: 0, count: n)
            tables.load(window, intoBitReversed: real)
            tables.transform(real: real, imaginary: imaginary)
            return [UInt8](unsafeUninitializedCapacity: width * height) { bytes, count in
                let scale = 255 / (maxDecibels - minDecibels)
                let inverseSize = 1 / Float(n)
                for k in 0..<width {
                    let magnitude = (real[k] * real[k] + imaginary[k] * imaginary[k]).squareRoot() * inverseSize
                    let decibels = 20 * log10f(magnitude)
                    bytes[k] = byte(scale * (decibels - minDecibels))
                }
                for i in 0..<width {
                    bytes[width + i] = byte(128 * (window[i] + 1))
                }
                count = width * height
            }
        }
    }

    /// Silence: row 0 all 0, row 1 all 128.
    package static var silence: [UInt8] {
        [UInt8](repeating: 0, count: width) + [UInt8](repeating: 128, count: width)
    }

    /// `value` clamped to 0…255 and truncated toward zero, as WebAudio's byte conversions do; NaN (from samples
    /// too large for the FFT) is 0.
    @inline(__always)
    static func byte(_ value: Float) -> UInt8 {
        guard value > 0 else { return 0 }
        return value >= 255 ? 255 : UInt8(value)
    }
}
