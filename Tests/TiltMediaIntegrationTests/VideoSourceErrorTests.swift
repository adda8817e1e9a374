import Foundation
import Testing
import TiltCore
import TiltTestKit

@testable import TiltMedia

/// What a person is told when a camera, a file or a pipeline does not work.
@Suite(.serialized) struct VideoSourceErrorTests {
    /// The error `input` fails to open with.
    static func failure(_ input: VideoInput, timeout: Double = 5) throws -> MediaError {
        let source = VideoSource(input, configuration: .init(firstFrameTimeout: timeout))
        do {
            try source.open()
        } catch {
            #expect(!source.isOpen)
            return error
        }
        source.close()
        throw MediaError.stream(input: input, reason: "it opened")
    }

    @Test func aMissingCameraIsNamed() throws {
        let error = try Self.failure(.camera("/dev/video-none"))
        guard case .noCamera(let device, _) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(device == "/dev/video-none")
        #expect(
            error.description.hasPrefix("no camera at /dev/video-none: Cannot identify device '/dev/video-none'"),
            "\(error)")
        #expect(error.description.contains("No such file or directory"))
        #expect(error.description.hasSuffix("; plug one in, or name another with --camera DEVICE"))
    }

    @Test func aCameraOpenedWithoutWaitingSaysItIsMissingOnTheNextRead() throws {
        let source = VideoSource(.camera("/dev/video-none"))
        try source.open(waitingForFirstFrame: false)
        var said: MediaError?
        for _ in 0..<200 where said == nil {
            do {
                _ = try source.latestFrame()
                Thread.sleep(forTimeInterval: 0.01)
            } catch {
                said = error
            }
        }
        guard case .noCamera(let device, _)? = said else {
            Issue.record("\(String(describing: said))")
            return
        }
        #expect(device == "/dev/video-none")
        #expect(!source.isOpen, "closed after the error")
    }

    @Test func aPathThatIsNotADeviceIsNoCamera() throws {
        let file = try temporaryFile(Array("not a camera".utf8), name: "video0")
        let error = try Self.failure(.camera(file))
        guard case .noCamera = error else {
            Issue.record("\(error)")
            return
        }
        #expect(error.description.contains("This isn't a device"), "\(error)")
        // A character device that is not a V4L2 one.
        let null = try Self.failure(.camera("/dev/null"))
        guard case .noCamera = null else {
            Issue.record("\(null)")
            return
        }
        #expect(null.description.contains("/dev/null"), "\(null)")
    }

    @Test func aTextFileIsNotAVideo() throws {
        let file = try temporaryFile(Array("just text\n".utf8), name: "notes.webm")
        let error = try Self.failure(.file(file))
        #expect(error == .video(path: file, problem: .unknownType, reason: "Could not determine type of stream"))
        #expect(error.description.contains("cannot use video \(file): not a video GStreamer knows"), "\(error)")
    }

    @Test func aFileCutBeforeItsFirstPictureIsDamaged() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: ballVideo))
        let file = try temporaryFile(Array(bytes.prefix(200)), name: "cut.webm")
        // The demuxer's error may be dropped by decodebin (a race while it sets the demuxer up): then the wait for
        // the first picture ends it, as damaged too.
        let error = try Self.failure(.file(file), timeout: 2)
        guard case .video(_, .damaged, _) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(error.description.contains("the video does not decode"), "\(error)")
    }

    @Test func aMissingFileIsUnreadable() throws {
        let error = try Self.failure(.file("/tmp/no-such-video-\(getpid()).webm"))
        guard case .video(_, .unreadable, _) = error else {
            Issue.record("\(error)")
            return
        }
    }

    @Test func anUnknownElementIsNamed() throws {
        let error = try Self.failure(.pipeline("nosuchelement"))
        #expect(error == .pipeline(description: "nosuchelement", reason: "no element \"nosuchelement\""))
        #expect(error.description.hasPrefix("cannot build the pipeline 'nosuchelement': no element \"nosuchelement\""))
    }

    @Test(arguments: [
        ("videotestsrc ! appsink", "appsink", "videotestsrc"),
        (
            "videotestsrc ! video/x-raw,width=8 ! appsink name=sink caps=video/x-raw", "appsink",
            "videotestsrc ! video/x-raw,width=8"
        ),
        ("videotestsrc ! videoconvert ! autovideosink sync=false", "autovideosink", "videotestsrc ! videoconvert"),
        (
            "videotestsrc ! textoverlay text=\"a ! fakesink\" ! fakesink", "fakesink",
            "videotestsrc ! textoverlay text=\"a ! fakesink\""
        ),
    ])
    func aPipelineEndingInASinkIsRefusedSayingWhatToDrop(description: String, sink: String, without: String) throws {
        let error = try Self.failure(.pipeline(description))
        #expect(error == .pipelineEndsInSink(description: description, sink: sink, without: without))
        #expect(
            error.description
                == "cannot use the pipeline '\(description)': it ends in \(sink), a sink, and tiltfx adds its own after "
                + "it (videoconvert ! video/x-raw,format=RGBA ! appsink); drop the last element: --source '\(without)'")
    }

    @Test(arguments: [
        "videotestsrc", "videotestsrc ! video/x-raw,width=8", "videotestsrc ! textoverlay text=\"! appsink\"",
    ])
    func aPipelineEndingInNoSinkIsKept(description: String) throws {
        try MediaFramework.start()
        #expect(VideoSource.trailingSink(of: description) == nil)
    }

    @Test func aPipelineThatEndsHasStopped() throws {
        let source = VideoSource(.pipeline("videotestsrc num-buffers=3 ! video/x-raw,framerate=100/1"))
        try source.open()
        var said: MediaError?
        for _ in 0..<200 where said == nil {
            do {
                _ = try source.latestFrame()
                usleep(10_000)
            } catch {
                said = error
            }
        }
        #expect(
            said == .stream(input: source.input, reason: "it ended (end of stream)"),
            "the end of a live source is a stop, where it kept its last frame before")
        #expect(!source.isOpen)
    }

    @Test func theLastFrameBeforeTheEndIsHandedOutBeforeTheStop() throws {
        let source = VideoSource(.pipeline("videotestsrc num-buffers=3 ! video/x-raw,framerate=100/1"))
        try source.open()
        // Frames as they come, until the stop: the app sink posts the end only once its last frame is taken, so
        // however the three frames fall between the calls, the third is handed out before the end is said.
        var shown: [VideoFrame] = []
        var stop: MediaError?
        let deadline = Deadline(seconds: 20)
        while stop == nil, !deadline.hasPassed {
            do {
                if let frame = try source.latestFrame() { shown.append(frame) }
            } catch {
                stop = error
            }
            usleep(5_000)
        }
        // Each call hands out the latest frame, so a late one skips some; they come in order, each once.
        let times = shown.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "frames in order, each once: \(times)")
        #expect(
            times.allSatisfy { t in [0, 0.01, 0.02].contains { abs($0 - t) < 0.001 } }, "the three frames: \(times)")
        let last = try #require(shown.last, "no frame was shown")
        #expect(abs(last.time - 0.02) < 0.001, "the frame before the end is shown: \(shown.map(\.time))")
        #expect(stop == .stream(input: source.input, reason: "it ended (end of stream)"))
        #expect(try source.latestFrame() == nil, "said once; closed")
    }

    @Test func aBusySystemErrorIsRecognisedAndHoldersAreFound() throws {
        let file = try temporaryFile([0], name: "held")
        // Another process holds the file (this one is left out of the search).
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "exec 3<\"$0\"; exec sleep 5", file]
        try child.run()
        defer { child.terminate() }
        var holders: [String] = []
        for _ in 0..<100 where holders.isEmpty {
            holders = DeviceHolders.find(file)
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(holders == ["\(child.processIdentifier) (sleep)"])
        // GStreamer writes the errno's words as the C library gives them (in the process's locale).
        let busyWords = String(cString: strerror(EBUSY))
        let error = VideoSource.mediaError(
            .init(code: 0, message: "Could not open device.", debug: "system error: \(busyWords)"),
            input: .camera("/dev/video0"), opening: true)
        guard case .cameraBusy(let device, let reason, _) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(device == "/dev/video0")
        #expect(reason == "Could not open device: \(busyWords)")
        // Another system error is not "busy", whatever its words contain.
        let denied = VideoSource.mediaError(
            .init(
                code: 0, message: "Could not open device.", debug: "system error: \(String(cString: strerror(EACCES)))"),
            input: .camera("/dev/video0"), opening: false)
        #expect(
            denied
                == .stream(
                    input: .camera("/dev/video0"), reason: "Could not open device: \(String(cString: strerror(EACCES)))"
                ))
        #expect(error.description.contains("close the program that uses it, or name another with --camera DEVICE"))
    }
}

/// The errno behind a GStreamer error's debug text, by the C library's words for it.
struct BusSystemErrorTests {
    @Test func theErrnoIsReadFromEitherFormOfTheDebugText() {
        let full = String(cString: strerror(ENOSPC))
        // GST_ERROR_SYSTEM's form, after the element's place.
        let prefixed = "gstfilesink.c(700): gst_file_sink_event (): /GstPipeline:pipeline0:\nsystem error: \(full)"
        #expect(BusError.systemError(in: prefixed) == ENOSPC)
        // filesink's write error: g_strerror(errno) alone on the last line.
        #expect(BusError.systemError(in: "gstfilesink.c(800): render (): /GstFileSink:filesink0:\n\(full)") == ENOSPC)
        #expect(BusError.systemError(in: "system error: \(String(cString: strerror(EBUSY)))") == EBUSY)
        #expect(BusError.systemError(in: "the disk said: \(full) (or so)") == nil)
        #expect(BusError.systemError(in: "") == nil)
        #expect(BusError.systemError(in: nil) == nil)
    }
}
