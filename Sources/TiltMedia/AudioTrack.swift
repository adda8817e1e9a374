import CGStreamer

#if canImport(Glibc)
    import Glibc
#endif

/// A whole audio file decoded once into mono samples, for a music channel: the window at a time is deterministic, so
/// offline renders are repeatable, and it loops.
///
/// ```swift
/// let track = try AudioTrack(path: "song.ogg")
/// let bytes = AudioSpectrum.texels(track.window(endingAt: frameTime))
/// ```
///
/// The file goes through `filesrc ! decodebin ! audioconvert ! audioresample !
/// audio/x-raw,format=F32LE,channels=1,rate=R ! appsink`, pulled as fast as it decodes until its end (WAV and Ogg
/// Vorbis, Opus and FLAC decode with Debian's gstreamer1.0-plugins-base and -good, MP3 too from GStreamer 1.14 on;
/// AAC and M4A need gstreamer1.0-libav). Only the sound is decoded: a video's pictures are left alone. The samples
/// stay in memory, 4 bytes each: a minute at 44.1 kHz is 10.6 MB.
///
/// A file longer than `maximumSeconds` is cut there: the first `maximumSeconds` are kept (and loop),
/// ``isTruncated`` says so and ``notice`` is the warning to print. Immutable once made.
package final class AudioTrack {
    /// The file decoded.
    package let path: String
    /// Samples per second of ``samples`` (the file is resampled to it).
    package let sampleRate: Int
    /// The longest stretch decoded, in seconds.
    package let maximumSeconds: Double
    /// The decoded sound: mono, in -1…1, at ``sampleRate``.
    package let samples: [Float]
    /// Whether the file is longer than ``maximumSeconds`` and only its first ``maximumSeconds`` were kept.
    package let isTruncated: Bool

    /// Seconds decoded (at most ``maximumSeconds``).
    package var duration: Double { Double(samples.count) / Double(sampleRate) }

    /// The warning to print when the file was cut at ``maximumSeconds``
    /// (``MediaError/audioTruncated(path:maximumSeconds:)``), else `nil`.
    package var notice: MediaError? {
        isTruncated ? .audioTruncated(path: path, maximumSeconds: maximumSeconds) : nil
    }

    /// Decodes the file at `path` to its end (or to `maximumSeconds`).
    /// - Parameters:
    ///   - path: a sound file, or a video whose soundtrack is wanted.
    ///   - sampleRate: samples per second to resample to (44100, as Shadertoy's WebAudio context usually runs).
    ///   - maximumSeconds: the most kept of a longer file (600: ten minutes, 106 MB of samples at 44.1 kHz).
    /// - Throws: ``MediaError/audio(path:problem:reason:)``: the file is missing or unreadable, not a file GStreamer
    ///   knows, holds no sound, has no decoder installed, or does not decode; ``MediaError/frameworkUnavailable(_:)``
    ///   or ``MediaError/missingElement(name:package:purpose:)`` when GStreamer or its base plugins are missing.
    package convenience init(path: String, sampleRate: Int = 44100, maximumSeconds: Double = 600) throws(MediaError) {
        try self.init(path: path, sampleRate: sampleRate, maximumSeconds: maximumSeconds, stallTimeout: 10)
    }

    /// ``init(path:sampleRate:maximumSeconds:)``, giving up after `stallTimeout` seconds without a sample, an error or
    /// the end: decodebin may drop a demuxer's error while it sets the demuxer up (a file cut short), and then nothing
    /// more comes.
    init(path: String, sampleRate: Int, maximumSeconds: Double, stallTimeout: Double) throws(MediaError) {
        precondition(sampleRate > 0, "a sample rate is positive, not \(sampleRate)")
        precondition(maximumSeconds > 0, "a track's maximum length is positive, not \(maximumSeconds)")
        self.path = path
        self.sampleRate = sampleRate
        self.maximumSeconds = maximumSeconds
        (samples, isTruncated) = try Self.decode(
            path, rate: sampleRate, limit: Int(min(maximumSeconds * Double(sampleRate), Double(Int32.max))),
            stallTimeout: stallTimeout)
    }

    /// The `count` samples that end at `seconds` into the track, the track looping.
    ///
    /// The track starts at 0 s and plays over and over: the last sample of the window is the one just before
    /// `seconds` (sample `round(seconds · rate) − 1`, modulo the track's length), and the window reaches back into the
    /// previous loop's end when it starts before this loop's start. Before 0 s nothing has played: those samples are
    /// zeros (so the window at a time under `count / rate` seconds is zero-padded at the front, and at 0 s or before it
    /// is all zeros). Hence `window(endingAt: duration + t) == window(endingAt: t)` for every `t` of at least
    /// `count / rate`.
    /// - Parameters:
    ///   - seconds: the time the window ends at (a non-finite time is silence).
    ///   - count: samples wanted (``AudioSpectrum/windowSize`` for ``AudioSpectrum/texels(_:)``).
    /// - Returns: `count` samples, oldest first.
    package func window(endingAt seconds: Double, count: Int = AudioSpectrum.windowSize) -> [Float] {
        precondition(count >= 0, "a window holds no fewer than 0 samples, not \(count)")
        var window = [Float](repeating: 0, count: count)
        let length = samples.count
        let end = (seconds * Double(sampleRate)).rounded()
        guard length > 0, count > 0, end.isFinite, end > 0 else { return window }
        // Samples played since 0 s, as many as the window holds; the end's place in the loop, exactly (whole
        // numbers up to 2^53 are exact doubles: a track of hours played for centuries).
        let played = end >= Double(count) ? count : Int(end)
        var source = Int(end.truncatingRemainder(dividingBy: Double(length)))
        var destination = count
        var remaining = played
        samples.withUnsafeBufferPointer { track in
            window.withUnsafeMutableBufferPointer { out in
                while remaining > 0 {
                    if source == 0 { source = length }
                    let take = min(remaining, source)
                    (out.baseAddress! + destination - take).update(
                        from: track.baseAddress! + source - take, count: take)
                    destination -= take
                    source -= take
                    remaining -= take
                }
            }
        }
        return window
    }

    /// Decodes `path` to `limit` samples at most.
    /// - Returns: the samples, and whether there was more.
    private static func decode(
        _ path: String, rate: Int, limit: Int, stallTimeout: Double
    ) throws(MediaError) -> ([Float], Bool) {
        try MediaFramework.start()
        let pipeline: AudioPipeline
        do {
            // Every stream is looked at (expose-all-streams): one that cannot become sound is then named in a
            // missing-plugin message (which tells a video without sound from sound without a decoder), and is not
            // exposed; only sound reaches audioconvert.
            pipeline = try AudioPipeline(
                "filesrc name=tilt_source ! decodebin caps=audio/x-raw expose-all-streams=true ! "
                    + AudioPipeline.conversion(rate: rate, live: false))
        } catch {
            for (element, package) in Self.elements where !MediaFramework.hasElement(element) {
                throw .missingElement(name: element, package: package, purpose: "decoding sound files")
            }
            throw .frameworkUnavailable(error.reason)
        }
        guard let source = pipeline.pipeline.child("tilt_source") else {
            throw .frameworkUnavailable("the decoding pipeline has no file source")
        }
        // Set as a property, not in the description: any path is taken as it is, quotes and spaces too.
        pipeline.pipeline.set("location", path, on: source)
        _ = pipeline.play()
        var samples: [Float] = []
        var truncated = false
        var missing: [String] = []
        var lastProgress = ContinuousClock.now
        decoding: while true {
            while let message = pipeline.nextMessage() {
                switch message {
                case .error(let error):
                    throw Self.mediaError(VideoSource.Failure(error), path: path, missingDecoders: missing)
                case .missingDecoder(let type): missing.append(type)
                case .endOfStream: break decoding
                case .warning: break
                }
            }
            let pulled = pipeline.pull(waiting: 50_000_000) { chunk in
                let room = limit - samples.count
                if chunk.count > room { truncated = true }
                samples.append(contentsOf: chunk.prefix(room))
            }
            if truncated { break }
            if pulled {
                lastProgress = .now
                continue
            }
            if pipeline.isAtEnd { break }
            if ContinuousClock.now - lastProgress > .seconds(stallTimeout) {
                let seconds = stallTimeout == stallTimeout.rounded() ? "\(Int(stallTimeout))" : "\(stallTimeout)"
                throw .audio(path: path, problem: .damaged, reason: "nothing decoded in \(seconds) s")
            }
        }
        // An error queued behind the last samples (a file cut short) is still said.
        while let message = pipeline.nextMessage() {
            if case .error(let error) = message, !truncated {
                throw Self.mediaError(VideoSource.Failure(error), path: path, missingDecoders: missing)
            }
        }
        pipeline.stop()
        guard !samples.isEmpty else {
            throw .audio(path: path, problem: .damaged, reason: "it ends before its first sample")
        }
        return (samples, truncated)
    }

    /// The elements of the decoding pipeline and the Debian packages that hold them.
    private static let elements = [
        ("filesrc", "libgstreamer1.0-0"), ("decodebin", "gstreamer1.0-plugins-base"),
        ("audioconvert", "gstreamer1.0-plugins-base"), ("audioresample", "gstreamer1.0-plugins-base"),
        ("appsink", "gstreamer1.0-plugins-base"),
    ]

    /// The ``MediaError`` for `failure` while decoding `path`, by GStreamer's error domain and code;
    /// `missingDecoders` are the media types decodebin said it found no decoder for.
    static func mediaError(_ failure: VideoSource.Failure, path: String, missingDecoders: [String]) -> MediaError {
        let reason = failure.reason
        if failure.isStream(GST_STREAM_ERROR_TYPE_NOT_FOUND, GST_STREAM_ERROR_WRONG_TYPE) {
            return .audio(path: path, problem: .unknownType, reason: reason)
        }
        let missingPlugin =
            failure.domain == gst_core_error_quark() && failure.code == Int32(GST_CORE_ERROR_MISSING_PLUGIN.rawValue)
        if missingPlugin || failure.isStream(GST_STREAM_ERROR_CODEC_NOT_FOUND) {
            // decodebin was asked for sound only: a stream it cannot turn into sound is either sound without a
            // decoder, or no sound at all (a video's pictures, a picture).
            let sounds = missingDecoders.filter { $0.hasPrefix("audio/") }
            if !sounds.isEmpty {
                return .audio(path: path, problem: .noDecoder, reason: "no decoder for \(Self.listed(sounds))")
            }
            if !missingDecoders.isEmpty {
                return .audio(path: path, problem: .notAudio, reason: "only \(Self.listed(missingDecoders))")
            }
            return .audio(path: path, problem: .noDecoder, reason: reason)
        }
        if failure.isResource(
            GST_RESOURCE_ERROR_NOT_FOUND, GST_RESOURCE_ERROR_OPEN_READ, GST_RESOURCE_ERROR_OPEN_READ_WRITE,
            GST_RESOURCE_ERROR_READ, GST_RESOURCE_ERROR_NOT_AUTHORIZED)
        {
            // GStreamer's words are general ("Resource not found"): the system's for the path say which.
            guard access(path, R_OK) != 0 else { return .audio(path: path, problem: .unreadable, reason: reason) }
            let system = String(cString: strerror(errno))
            return .audio(path: path, problem: .unreadable, reason: "\(reason): \(system)")
        }
        return .audio(path: path, problem: .damaged, reason: reason)
    }

    /// Media types, each once, in the order found: "audio/mpeg", "video/x-vp8 and audio/x-opus".
    private static func listed(_ types: [String]) -> String {
        var seen: [String] = []
        for type in types where !seen.contains(type) { seen.append(type) }
        return seen.joined(separator: " and ")
    }
}
