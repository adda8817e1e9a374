import CGStreamer

#if canImport(Glibc)
    import Glibc
#endif

/// Live audio from a capture device or any GStreamer pipeline description, for a microphone channel.
///
/// ```swift
/// let microphone = AudioCapture()            // GStreamer's autoaudiosrc: PipeWire, PulseAudio, ALSA, …
/// try microphone.open()                      // MediaError.noAudioCapture when there is none: then play silence
/// let bytes = AudioSpectrum.texels(microphone.latest())   // each frame
/// ```
///
/// The source is followed by `audioconvert ! audioresample ! audio/x-raw,format=F32LE,channels=1,rate=R ! appsink`;
/// GStreamer captures on its own threads into the app sink (which drops its oldest buffers when nobody reads, so a
/// stalled reader never stalls the capture), and ``latest(count:)`` drains what arrived without waiting into a ring
/// of the newest samples. Not thread-safe: use it from one thread (the render loop's).
///
/// A capture that fails after opening (the device unplugged, the pipeline ended) closes itself; ``stopReason`` says
/// why, and ``latest(count:)`` gives silence until it is opened again.
package final class AudioCapture {
    /// The source used when none is given: GStreamer's `autoaudiosrc`, which picks the capture element that opens
    /// (PipeWire's, PulseAudio's, ALSA's, in the order of their ranks).
    package static let defaultSource = "autoaudiosrc"

    /// The source part of the pipeline: ``defaultSource`` or the description given.
    package let source: String
    /// Whether ``source`` is the default capture device rather than a description given.
    package let isDefaultDevice: Bool
    /// Samples per second the capture is resampled to.
    package let sampleRate: Int
    /// Seconds ``open()`` waits for the first sound (or the error that stops it).
    package let startTimeout: Double
    /// Whether a pipeline plays (between ``open()`` and ``close()``, unless it stopped by itself).
    package var isOpen: Bool { pipeline != nil }
    /// Samples received since the capture was made, over every opening: a reader can wait for enough to analyse.
    package private(set) var samplesReceived = 0
    /// Why an open capture closed itself (the device went away, the pipeline failed or ended); `nil` while it plays,
    /// and after ``open()`` or ``close()``.
    package private(set) var stopReason: MediaError?

    /// The pipeline while open.
    private var pipeline: AudioPipeline?
    /// The newest samples: four windows' worth, more when ``latest(count:)`` asks for more.
    private var history = SampleRing(capacity: 4 * AudioSpectrum.windowSize)

    /// A capture from `pipeline`, a GStreamer description of a source (`pulsesrc device=…`, `alsasrc device=hw:1`,
    /// `audiotestsrc is-live=true`), or from the default device when `nil`; nothing is opened until ``open()``.
    /// - Parameters:
    ///   - pipeline: the source's description, without a sink (tilt appends its own conversion and app sink).
    ///   - sampleRate: samples per second to resample to (44100, as Shadertoy's WebAudio context usually runs).
    ///   - startTimeout: seconds ``open()`` waits for the first sound (2: a sound server answers in milliseconds, a
    ///     device that does not exist at once; what has given nothing in 2 s is not going to).
    package init(pipeline: String? = nil, sampleRate: Int = 44100, startTimeout: Double = 2) {
        precondition(sampleRate > 0, "a sample rate is positive, not \(sampleRate)")
        self.source = pipeline ?? Self.defaultSource
        self.isDefaultDevice = pipeline == nil
        self.sampleRate = sampleRate
        self.startTimeout = startTimeout
    }

    deinit {
        close()
    }

    /// Builds the pipeline, plays it and waits for its first sound. Does nothing when already open.
    /// - Throws: ``MediaError/noAudioCapture(source:reason:)`` when there is no capture device (the audio source
    ///   fails to open, `autoaudiosrc` finds none and would play silence, or the default device gives no sound within
    ///   ``startTimeout``); ``MediaError/audioPipeline(description:reason:)`` when a description cannot be built, or
    ///   fails, ends or gives no sound within ``startTimeout``. The capture is closed again.
    package func open() throws(MediaError) {
        guard pipeline == nil else { return }
        stopReason = nil
        try MediaFramework.start()
        let built: AudioPipeline
        do {
            built = try AudioPipeline("\(source) ! " + AudioPipeline.conversion(rate: sampleRate, live: true))
        } catch {
            throw .audioPipeline(description: source, reason: error.reason)
        }
        pipeline = built
        history.removeAll()
        do throws(MediaError) {
            try waitForFirstSound(built)
        } catch {
            close()
            throw error
        }
    }

    /// The newest `count` samples, oldest first, zero-padded at the front when fewer have come; drains what arrived
    /// since the last call without waiting. Silence (all zeros) when the capture is not open.
    /// - Parameter count: samples wanted (``AudioSpectrum/windowSize`` for ``AudioSpectrum/texels(_:)``).
    package func latest(count: Int = AudioSpectrum.windowSize) -> [Float] {
        precondition(count >= 0, "a window holds no fewer than 0 samples, not \(count)")
        guard let pipeline else { return [Float](repeating: 0, count: count) }
        history.reserve(count)
        // Bounded, should a source deliver faster than it is drained: the rest waits for the next call.
        for _ in 0..<256 {
            guard pipeline.pull(waiting: 0, keep) else { break }
        }
        while let message = pipeline.nextMessage() {
            switch message {
            case .error(let error):
                let reason = mediaError(error, in: pipeline)
                close()
                stopReason = reason
            case .endOfStream:
                close()
                stopReason = stopped(because: "it ended (end of stream)")
            case .warning, .missingDecoder:
                continue
            }
            return [Float](repeating: 0, count: count)
        }
        return history.newest(count)
    }

    /// Stops the pipeline (a device is released) and forgets the samples held. A later ``open()`` starts again.
    package func close() {
        guard let pipeline else { return }
        pipeline.stop()
        self.pipeline = nil
        history.removeAll()
        stopReason = nil
    }

    /// Keeps a buffer's samples.
    private func keep(_ samples: UnsafeBufferPointer<Float>) {
        history.append(samples)
        samplesReceived += samples.count
    }

    /// Plays `pipeline` and waits for its first buffer of sound, an error, the end or the timeout.
    private func waitForFirstSound(_ pipeline: AudioPipeline) throws(MediaError) {
        let refused = !pipeline.play()
        var warnings: [String] = []
        let deadline = ContinuousClock.now + .seconds(startTimeout)
        var firstTurn = true
        while true {
            defer { firstTurn = false }
            while let message = pipeline.nextMessage() {
                switch message {
                case .error(let error): throw mediaError(error, in: pipeline)
                case .endOfStream: throw stopped(because: "it ended before its first sound")
                case .warning(let text): warnings.append(text)
                case .missingDecoder: continue
                }
            }
            // autoaudiosrc makes its choice as the pipeline starts (in play()), warning of each element that would
            // not open: a silent stand-in means that none did. Its warnings were read just above.
            if firstTurn && pipeline.usesFallbackAudioSource {
                throw .noAudioCapture(
                    source: source, reason: warnings.last ?? "no capture element (PipeWire, PulseAudio, ALSA) opened")
            }
            // A refusal leaves its error on the bus, read above on the next turn.
            if !refused && pipeline.pull(waiting: 20_000_000, keep) { return }
            if refused { usleep(20_000) }
            if ContinuousClock.now > deadline {
                let waited = "no sound came in \(Self.secondsText(startTimeout)) s"
                throw stopped(because: refused ? "GStreamer would not start it (\(waited))" : waited)
            }
        }
    }

    /// The error for a capture that stopped or never started for `reason`: no capture device for the default
    /// device, a pipeline that does not work for a description.
    private func stopped(because reason: String) -> MediaError {
        isDefaultDevice
            ? .noAudioCapture(source: source, reason: reason) : .audioPipeline(description: source, reason: reason)
    }

    /// The ``MediaError`` for an element's `error`: a resource error of the audio source (a device that does not
    /// exist, is busy or went away, a sound server that does not answer) is no capture device; anything else is the
    /// pipeline's.
    private func mediaError(_ error: BusError, in pipeline: AudioPipeline) -> MediaError {
        let failure = VideoSource.Failure(error)
        let fromSource = error.element.map(pipeline.isAudioSource) ?? false
        if fromSource && failure.domain == gst_resource_error_quark() {
            return .noAudioCapture(source: source, reason: failure.reason)
        }
        return .audioPipeline(description: source, reason: failure.reason)
    }

    /// Seconds said in a message: whole when whole, else as they are.
    private static func secondsText(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
