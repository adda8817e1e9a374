import ArgumentParser
import FoundationEssentials
import TiltCore
import TiltEffects
import TiltGL
import TiltImage
import TiltRender

/// `--image FILE | --camera [DEVICE] | --source PIPELINE`, with `--fit MODE`: the user's picture, still or moving, as
/// the content the preset's first effect shades.
struct PictureOptions: ParsableArguments {
    @Option(
        help: """
            A PNG or JPEG picture, or a video file (anything else is played through GStreamer, in a loop): the \
            content the preset's first effect shades, in place of the preset's own (its "content" effects).
            """)
    var image: String?

    @Option(
        defaultAsFlag: PictureContent.defaultCamera, parsing: .next,
        help: ArgumentHelp(
            "A V4L2 camera as the content (or, for a Shadertoy program with a webcam channel, as that channel); "
                + "closed while the run draws a still frame or is hidden.",
            valueName: "device"))
    var camera: String? = nil

    @Option(
        help: ArgumentHelp(
            "A GStreamer pipeline as the content (or a Shadertoy webcam channel, as --camera), e.g. "
                + "'videotestsrc pattern=ball' (gst-launch-1.0 syntax; tilt appends `videoconvert ! "
                + "video/x-raw,format=RGBA ! appsink`, so end it without a sink).",
            valueName: "pipeline"))
    var source: String?

    @Option(help: "How the picture fills the frame: contain (all of it, centred), cover (filled, cut), or stretch.")
    var fit: PictureContent.Fit?

    /// Refuses `--fit` without a picture, and more than one picture (usage mistakes).
    func validate() throws {
        let given = [("--image", image != nil), ("--camera", camera != nil), ("--source", source != nil)]
            .filter(\.1).map(\.0)
        if given.count > 1 {
            throw ValidationError(
                "\(given.joined(separator: " and ")) each give the picture; choose one of --image, --camera and "
                    + "--source")
        }
        if fit != nil && given.isEmpty {
            throw ValidationError("--fit places the picture of --image; add --image FILE (or --camera, --source)")
        }
        if let source, source.trimmingWhitespace.isEmpty {
            throw ValidationError("--source needs a GStreamer pipeline, e.g. --source videotestsrc")
        }
    }

    /// What `--camera` or `--source` give to a preset whose Shadertoy program has a webcam channel: the channel's
    /// pictures (the picture, ``load(for:)``, is then none); `nil` otherwise.
    func webcam(for preset: Preset) -> VideoInput? {
        guard preset.shadertoyProgram?.channels.contains(where: { $0.source == .webcam }) == true else { return nil }
        if let camera { return .camera(camera) }
        return source.map { .pipeline($0) }
    }

    /// The picture for `preset`: none when `--camera` or `--source` feed its webcam channel (``webcam(for:)``), else
    /// as ``load()``.
    func load(for preset: Preset) throws -> PictureContent? {
        webcam(for: preset) == nil ? try load() : nil
    }

    /// The picture: decoded (`--image`, a video's first frame), or a camera or pipeline opened when the run starts;
    /// `nil` without one.
    /// - Throws: `ImageError` (exit 1) naming the file and what is wrong.
    func load() throws -> PictureContent? {
        let fit = fit ?? .contain
        if let image { return try PictureContent.load(path: image, fit: fit) }
        if let camera { return PictureContent.camera(camera, fit: fit) }
        if let source { return PictureContent.pipeline(source, fit: fit) }
        return nil
    }
}

extension PictureContent.Fit: ExpressibleByArgument {}
