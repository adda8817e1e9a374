import TiltCore

/// What can go wrong with a media pipeline, each case saying what and what to do.
package enum MediaError: Error, Equatable, CustomStringConvertible {
    /// What is wrong with a video file.
    package enum VideoProblem: Sendable, Hashable {
        /// GStreamer cannot tell what the bytes are (not a video, or not one it knows).
        case unknownType
        /// It is a video, but no decoder for its format is installed.
        case noDecoder
        /// It starts as a video but does not decode (cut short, damaged), or ends before its first picture.
        case damaged
        /// It cannot be opened or read.
        case unreadable
    }

    /// What is wrong with an audio file (``AudioTrack``).
    package enum AudioProblem: Sendable, Hashable {
        /// GStreamer cannot tell what the bytes are (not a sound file, or not one it knows).
        case unknownType
        /// A file GStreamer knows that holds no sound (a video without a soundtrack, a picture).
        case notAudio
        /// It holds sound, but no decoder for its format is installed (AAC without gstreamer1.0-libav).
        case noDecoder
        /// It starts as sound but does not decode (cut short, damaged), or ends before its first sample.
        case damaged
        /// It cannot be opened or read (missing, a folder, no permission).
        case unreadable
    }

    /// GStreamer itself would not start.
    case frameworkUnavailable(String)
    /// No camera at the device path (missing, not a device, not a V4L2 capture device).
    case noCamera(device: String, reason: String)
    /// The camera is there but another program holds it; `holders` names the programs found holding it.
    case cameraBusy(device: String, reason: String, holders: [String])
    /// A video file that does not play.
    case video(path: String, problem: VideoProblem, reason: String)
    /// A `--source` description GStreamer cannot build (an unknown element, a syntax error, a link that fails).
    case pipeline(description: String, reason: String)
    /// A `--source` description that ends in a sink element (`appsink`, `autovideosink`, …), where tilt appends its
    /// own; `without` is the description with that last element dropped.
    case pipelineEndsInSink(description: String, sink: String, without: String)
    /// An input that opened but gave no picture in time, or stopped with an error while playing.
    case stream(input: VideoInput, reason: String)
    /// No encoder for `codec` is installed; `alternatives` are the container's other codecs that are.
    case noEncoder(codec: VideoCodec, container: VideoContainer, alternatives: [VideoCodec])
    /// A GStreamer element the container needs (its muxer) is not installed.
    case missingElement(name: String, package: String, purpose: String)
    /// The request cannot be encoded as asked (a codec the container cannot hold, a size the codec refuses); the
    /// text says what and what to do.
    case unsupported(String)
    /// The output file was refused or could not be created or finished.
    case output(OutputFileError)
    /// The disk filled up while `frames` frames had been handed to the encoder; the partial file was removed.
    case diskFull(path: String, frames: Int)
    /// The encoding pipeline failed part way (`reason` is GStreamer's message); the partial file was removed.
    case encoding(path: String, reason: String)
    /// A video could not be read back (`reason` is GStreamer's message).
    case decoding(path: String, reason: String)
    /// An audio file that does not decode (``AudioTrack``).
    case audio(path: String, problem: AudioProblem, reason: String)
    /// An audio file longer than the `maximumSeconds` an ``AudioTrack`` decodes: only its first `maximumSeconds` are
    /// kept, and loop. Never thrown: it is ``AudioTrack/notice``, for the caller to print as a warning.
    case audioTruncated(path: String, maximumSeconds: Double)
    /// No audio capture device could be opened (none there, none the sound server offers, or it went away); `source`
    /// is the capture element or description, `reason` GStreamer's words. A microphone channel then hears silence.
    case noAudioCapture(source: String, reason: String)
    /// An audio capture description GStreamer cannot build, or that fails, ends or stays silent when started.
    case audioPipeline(description: String, reason: String)

    package var description: String {
        switch self {
        case .frameworkUnavailable(let reason):
            return "GStreamer would not start: \(reason); install the packages scripts/bootstrap lists"
        case .noCamera(let device, let reason):
            return "no camera at \(device): \(reason); plug one in, or name another with --camera DEVICE"
        case .cameraBusy(let device, let reason, let holders):
            return "camera \(device) is busy (\(reason))"
                + (holders.isEmpty ? "" : ": in use by \(holders.joined(separator: ", "))")
                + "; close the program that uses it, or name another with --camera DEVICE"
        case .video(let path, let problem, let reason):
            return "cannot use video \(path): " + Self.advice(problem, reason)
        case .pipeline(let description, let reason):
            return "cannot build the pipeline '\(description)': \(reason); check it with "
                + "`gst-launch-1.0 \(description) ! videoconvert ! autovideosink` and `gst-inspect-1.0`"
        case .pipelineEndsInSink(let description, let sink, let without):
            return
                "cannot use the pipeline '\(description)': it ends in \(sink), a sink, and tiltfx adds its own after it "
                + "(videoconvert ! video/x-raw,format=RGBA ! appsink); drop the last element: --source '\(without)'"
        case .stream(let input, let reason):
            return "\(input) stopped: \(reason)"
        case .noEncoder(let codec, let container, let alternatives):
            let install = codec.encoders.map { "\($0.element) (Debian: apt install \($0.package))" }
            var text =
                "no \(codec.title) encoder is installed for .\(container.rawValue): GStreamer has no "
                + install.joined(separator: " or ") + "; install it"
            if let other = alternatives.first {
                text += ", or pass --codec \(other.rawValue) for an .\(container.rawValue) with \(other.title)"
            }
            if container != .webm { text += ", or write a .webm file (VP9)" }
            return text
        case .missingElement(let name, let package, let purpose):
            return "the GStreamer element \(name) (\(purpose)) is not installed; install it (Debian: apt install "
                + "\(package))"
        case .unsupported(let text):
            return text
        case .output(let error):
            return error.description
        case .diskFull(let path, let frames):
            return "cannot write \(path): the disk is full (No space left on device) after \(frames) frames; the "
                + "partial video was removed; free some space or write the video elsewhere"
        case .encoding(let path, let reason):
            return "cannot encode \(path): \(reason); the partial video was removed"
        case .decoding(let path, let reason):
            return "cannot decode \(path): \(reason)"
        case .audio(let path, let problem, let reason):
            return "cannot use audio \(path): " + Self.advice(problem, reason)
        case .audioTruncated(let path, let maximum):
            let seconds = maximum == maximum.rounded() && abs(maximum) < 1e15 ? "\(Int(maximum))" : "\(maximum)"
            return "audio \(path) is longer than \(seconds) s: only its first \(seconds) s are used (and loop); cut it "
                + "shorter to hear all of it"
        case .noAudioCapture(let source, let reason):
            return "no audio capture device (\(source): \(reason)); plug in a microphone or check PulseAudio/PipeWire/"
                + "ALSA (`pactl list short sources`, `arecord -l`); the shader hears silence"
        case .audioPipeline(let description, let reason):
            return "cannot use the audio pipeline '\(description)': \(reason); check it with "
                + "`gst-launch-1.0 \(description) ! audioconvert ! autoaudiosink` and `gst-inspect-1.0`"
        }
    }

    private static func advice(_ problem: VideoProblem, _ reason: String) -> String {
        switch problem {
        case .unknownType:
            "not a video GStreamer knows (\(reason)); give a video file (WebM, MP4, Ogg, …) or a PNG or JPEG picture"
        case .noDecoder:
            "no decoder for it is installed (\(reason)); install the GStreamer plugins for its format "
                + "(gstreamer1.0-plugins-good, -bad, -ugly or gstreamer1.0-libav), or convert it to WebM (VP8/VP9)"
        case .damaged:
            "the video does not decode (\(reason)); check that it plays (`gst-play-1.0 FILE`) or encode it again"
        case .unreadable:
            "\(reason); check the path and its permissions"
        }
    }

    private static func advice(_ problem: AudioProblem, _ reason: String) -> String {
        switch problem {
        case .unknownType:
            "not a sound file GStreamer knows (\(reason)); give a sound file (WAV, Ogg Vorbis, Opus, FLAC, MP3, …)"
        case .notAudio:
            "it holds no sound (\(reason)); give a sound file (WAV, Ogg Vorbis, Opus, FLAC, MP3, …)"
        case .noDecoder:
            "no decoder for its sound is installed (\(reason)); install the GStreamer plugins for its format "
                + "(Debian: gstreamer1.0-libav for AAC/M4A and most others, gstreamer1.0-plugins-ugly or -bad), or "
                + "convert it to Ogg Vorbis, FLAC or WAV"
        case .damaged:
            "the sound does not decode (\(reason)); check that it plays (`gst-play-1.0 FILE`) or encode it again"
        case .unreadable:
            "\(reason); check the path and its permissions"
        }
    }
}
