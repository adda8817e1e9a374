#if canImport(Glibc)
    import Glibc
#endif

extension AudioSpectrum {
    /// The tables of ``AudioSpectrum``'s 1024-point FFT, computed once per process: the Blackman window, the twiddle
    /// factors and the bit-reversed order. Immutable after they are made, so any thread may use them.
    struct FFTTables: Sendable {
        /// The tables for ``AudioSpectrum/windowSize`` points.
        static let shared = FFTTables(size: AudioSpectrum.windowSize)

        /// Points (a power of two).
        let size: Int
        /// WebAudio's Blackman window: `a0 − a1·cos(2πn/N) + a2·cos(4πn/N)`, a0 = 0.42, a1 = 0.5, a2 = 0.08 (the
        /// periodic form, N in the denominator, as Chromium and Firefox compute it).
        let window: [Float]
        /// `cos(2πk/N)` for k in 0..<N/2: the real parts of the forward transform's twiddle factors.
        let cosines: [Float]
        /// `−sin(2πk/N)` for k in 0..<N/2: their imaginary parts.
        let sines: [Float]
        /// Where sample `i` goes before the butterflies: `i` with its log2(N) bits reversed.
        let bitReversed: [Int]

        /// The tables for `size` points, a power of two of at least 2.
        init(size: Int) {
            precondition(size >= 2 && size & (size - 1) == 0, "an FFT size is a power of two, not \(size)")
            self.size = size
            let n = Double(size)
            window = (0..<size).map { i in
                let x = Double(i) / n
                return Float(0.42 - 0.5 * cos(2 * Double.pi * x) + 0.08 * cos(4 * Double.pi * x))
            }
            cosines = (0..<size / 2).map { Float(cos(2 * Double.pi * Double($0) / n)) }
            sines = (0..<size / 2).map { Float(-sin(2 * Double.pi * Double($0) / n)) }
            let bits = size.trailingZeroBitCount
            bitReversed = (0..<size).map { i in
                var reversed = 0
                for bit in 0..<bits where i & (1 << bit) != 0 { reversed |= 1 << (bits - 1 - bit) }
                return reversed
            }
        }

        /// Writes `samples` (``size`` of them) times the window into `real`, in bit-reversed order.
        func load(_ samples: UnsafePointer<Float>, intoBitReversed real: UnsafeMutablePointer<Float>) {
            window.withUnsafeBufferPointer { window in
                bitReversed.withUnsafeBufferPointer { order in
                    for i in 0..<size { real[order[i]] = samples[i] * window[i] }
                }
            }
        }

        /// The forward transform in place, `X[k] = Σ x[n]·e^(−2πikn/N)`, of values already in bit-reversed order
        /// (``load(_:intoBitReversed:)``): iterative radix-2 Cooley–Tukey, log2(N) passes of butterflies.
        func transform(real: UnsafeMutablePointer<Float>, imaginary: UnsafeMutablePointer<Float>) {
            cosines.withUnsafeBufferPointer { cosines in
                sines.withUnsafeBufferPointer { sines in
                    var span = 2
                    while span <= size {
                        let half = span / 2
                        let step = size / span
                        var start = 0
                        while start < size {
                            for j in 0..<half {
                                let (c, s) = (cosines[j * step], sines[j * step])
                                let a = start + j
                                let b = a + half
                                let tr = real[b] * c - imaginary[b] * s
                                let ti = real[b] * s + imaginary[b] * c
                                real[b] = real[a] - tr
                                imaginary[b] = imaginary[a] - ti
                                real[a] += tr
                                imaginary[a] += ti
                            }
                            start += span
                        }
                        span *= 2
                    }
                }
            }
        }
    }
}
