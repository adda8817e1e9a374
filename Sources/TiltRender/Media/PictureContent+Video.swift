import FoundationEssentials
import Glibc
import TiltCore
import TiltGL
import TiltImage
import TiltMedia

extension PictureContent {
    /// The picture at `path`: a PNG or JPEG (known by its first bytes) decoded, or anything else tried as a video
    /// through GStreamer, whose first frame is decoded here (so a file that does not play fails now, before any GL
    /// work) and which then plays in a loop.
    /// - Throws: `ImageError` naming the file and what is wrong with it (for a video, what GStreamer said).
    package static func load(path: String, fit: Fit = .contain) throws(ImageError) -> PictureContent {
        // Only the first bytes are read to tell a picture from a video (which may be large); a file that cannot be
        // read is said by the picture decoder's reader.
        guard let head = firstBytes(of: path, count: 16) else {
            _ = try ImageDecoder.readFile(path)
            throw ImageError(.unreadable, path: path, reason: "it cannot be read; check the path")
        }
        guard !head.isEmpty else {
            throw ImageError(.empty, path: path, reason: "the file is empty; give a PNG or JPEG picture or a video")
        }
        if (try? ImageDecoder.format(of: head, path: path)) != nil {
            return PictureContent(image: try ImageDecoder.load(path: path), path: path, fit: fit)
        }
        let source = VideoSource(.file(path), configuration: .init(pacing: .stepped))
        defer { source.close() }
        do {
            let first = try source.frame(at: 0)
            let image = DecodedImage(width: first.width, height: first.height, pixels: first.pixels)
            return PictureContent(image: image, path: path, fit: fit, video: .file(path))
        } catch {
            throw imageError(error, path: path)
        }
    }

    /// A moving picture from a camera or a GStreamer pipeline: nothing is opened until a run starts it, and a
    /// transparent pixel stands for it until its first frame.
    package static func live(_ input: VideoInput, fit: Fit = .contain) -> PictureContent {
        PictureContent(
            image: DecodedImage(width: 1, height: 1, pixels: [0, 0, 0, 0]), path: input.description, fit: fit,
            video: input)
    }

    /// The camera `--camera` opens when it names none: `/dev/video0`.
    package static let defaultCamera = VideoInput.defaultCamera

    /// A V4L2 camera (`--camera DEVICE`), opened when a run starts.
    package static func camera(_ device: String, fit: Fit = .contain) -> PictureContent {
        live(.camera(device), fit: fit)
    }

    /// A GStreamer pipeline description (`--source PIPELINE`), built when a run starts.
    package static func pipeline(_ description: String, fit: Fit = .contain) -> PictureContent {
        live(.pipeline(description), fit: fit)
    }

    /// `error` of the video at `path`, said as a picture's error (`cannot use image PATH: …`).
    private static func imageError(_ error: MediaError, path: String) -> ImageError {
        guard case .video(_, let problem, let reason) = error else {
            return ImageError(.damaged, path: path, reason: "\(error)")
        }
        let said = "\(error)".replacing("cannot use video \(path): ", with: "")
        switch problem {
        case .unknownType:
            return ImageError(
                .unknownFormat, path: path,
                reason: "not a picture tilt reads (its first bytes are neither PNG's nor JPEG's), nor a video "
                    + "GStreamer knows (\(reason)); give a PNG or JPEG picture or a video file (WebM, MP4, Ogg, …)")
        case .unreadable: return ImageError(.unreadable, path: path, reason: said)
        case .noDecoder, .damaged: return ImageError(.damaged, path: path, reason: said)
        }
    }

    /// Up to `count` first bytes of the file at `path`; `nil` when it cannot be opened or read.
    private static func firstBytes(of path: String, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        var n = 0
        repeat {
            n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, count) }
        } while n < 0 && errno == EINTR
        guard n >= 0 else { return nil }
        return Array(bytes.prefix(n))
    }

}
