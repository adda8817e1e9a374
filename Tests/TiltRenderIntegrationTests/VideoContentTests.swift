import Foundation
import Testing
import TiltCore
import TiltEffects
import TiltGL
import TiltImage
import TiltRender
import TiltRenderTestKit
import TiltTestKit

/// Moving pictures as content, in process: frames uploaded into the renderer, and the power gate closing a live
/// source. `videotestsrc is-live=true` stands in for a camera.
@Suite(.serialized) struct VideoContentTests {
    static let ball = TestPaths.fixture("ball-64x48.webm")

    /// A renderer of the (not animated) `tilt-specular` preset at 32x32 on `picture`.
    static func renderer(_ picture: PictureContent) throws -> OffscreenRenderer {
        _ = GLTestEnvironment.configured
        return try OffscreenRenderer(
            preset: try GLTestEnvironment.library.load("tilt-specular"), width: 32, height: 32, picture: picture)
    }

    static let inputs = FrameInputs(size: SIMD2(32, 32))

    @Test func aVideoFileLoadsItsFirstFrameAndSteppingShowsLaterOnes() throws {
        let picture = try PictureContent.load(path: Self.ball, fit: .stretch)
        #expect(picture.isMoving)
        #expect(picture.image.width == 64 && picture.image.height == 48)
        let renderer = try Self.renderer(picture)
        let feed = try #require(PictureFeed(picture: picture, stepped: true))
        try feed.start()
        defer { feed.stop() }
        let before = try renderer.render(Self.inputs)
        #expect(try feed.show(at: 0, renderer.effects), "the first frame is shown")
        #expect(try renderer.render(Self.inputs) == before, "the first frame is the loaded picture")
        #expect(!(try feed.show(at: 0.01, renderer.effects)), "the same frame is on show 10 ms in")
        #expect(try feed.show(at: 1, renderer.effects))
        let later = try renderer.render(Self.inputs)
        #expect(ImageDifference(before, later).meanAbsolute > 1, "the ball moved")
        // Past the end (2 s) it loops: 3 s in shows what 1 s in did.
        #expect(try feed.show(at: 3, renderer.effects))
        #expect(try renderer.render(Self.inputs) == later)
    }

    @Test func aStillPictureHasNoFeed() throws {
        let path = try TestPictures.file(
            try TestPictures.png(TestPictures.pattern(width: 8, height: 8)), name: "still.png")
        let picture = try PictureContent.load(path: path)
        #expect(!picture.isMoving)
        #expect(PictureFeed(picture: picture) == nil)
        #expect(PictureFeed(picture: nil) == nil)
    }

    @Test func aLiveSourceIsClosedWhileStillOrHiddenAndOpenedAfter() throws {
        let picture = PictureContent.pipeline(
            "videotestsrc is-live=true pattern=ball ! video/x-raw,width=32,height=24,framerate=30/1", fit: .stretch)
        let renderer = try Self.renderer(picture)
        let feed = try #require(PictureFeed(picture: picture))
        #expect(!feed.isOpen)
        try feed.start()
        #expect(feed.isOpen)
        #expect(try feed.refresh(renderer.effects), "the first frame is shown at once")
        #expect(try feed.follow(.full, showingOn: renderer.effects) == nil, "already playing")
        #expect(
            try feed.follow(.still, showingOn: renderer.effects)
                == "pipeline 'videotestsrc is-live=true pattern=ball ! video/x-raw,width=32,height=24,framerate=30/1' "
                + "closed while still")
        #expect(!feed.isOpen && feed.isGated)
        #expect(!(try feed.refresh(renderer.effects)))
        #expect(try feed.follow(.hidden, showingOn: renderer.effects) == nil, "still closed")
        #expect(!feed.isOpen)
        #expect(try feed.follow(.capped, showingOn: renderer.effects)?.hasSuffix("open again") == true)
        #expect(feed.isOpen && !feed.isGated)
        // Opened again without waiting: the loop keeps drawing the last frame until the first new one comes.
        var again = false
        for _ in 0..<500 where !again {
            again = try feed.refresh(renderer.effects)
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(again, "frames come again")
        feed.stop()
        #expect(!feed.isOpen)
    }

    @Test func aLiveSourceThatStopsKeepsItsPictureThroughAGateAndIsOpenedAgain() throws {
        let description =
            "videotestsrc is-live=true pattern=ball num-buffers=3 ! video/x-raw,width=32,height=24,framerate=30/1"
        let picture = PictureContent.pipeline(description, fit: .stretch)
        let renderer = try Self.renderer(picture)
        let feed = try #require(PictureFeed(picture: picture, retry: .init(firstDelay: 0.05, longestDelay: 0.2)))
        try feed.start()
        defer { feed.stop() }
        for _ in 0..<300 where !feed.isStopped {
            _ = try feed.refresh(renderer.effects)
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(feed.isStopped && !feed.isOpen, "three frames, then the end: stopped, not thrown")
        #expect(feed.framesShown >= 1)
        let last = try renderer.render(Self.inputs)
        #expect(
            try feed.follow(.still, showingOn: renderer.effects) == "pipeline '\(description)' closed while still")
        #expect(feed.isStopped && !feed.isOpen)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(!(try feed.refresh(renderer.effects)), "gated: no try")
        #expect(!feed.isOpen)
        #expect(try renderer.render(Self.inputs) == last, "its last picture stays on show")
        #expect(
            try feed.follow(.full, showingOn: renderer.effects)
                == "pipeline '\(description)' had stopped: trying to open it again")
        var back = false
        for _ in 0..<300 where !back {
            back = try feed.refresh(renderer.effects)
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(back && !feed.isStopped, "opened again, its frames come")
    }

    @Test func withoutARetryAStopIsThrown() throws {
        let description = "videotestsrc is-live=true num-buffers=2 ! video/x-raw,width=32,height=24,framerate=30/1"
        let picture = PictureContent.pipeline(description)
        let renderer = try Self.renderer(picture)
        let feed = try #require(PictureFeed(picture: picture))
        try feed.start()
        defer { feed.stop() }
        var thrown: (any Error)?
        for _ in 0..<300 where thrown == nil {
            do { _ = try feed.refresh(renderer.effects) } catch { thrown = error }
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(
            "\(thrown.map { "\($0)" } ?? "nothing")" == "pipeline '\(description)' stopped: it ended (end of stream)")
        #expect(!feed.isStopped)
    }

    @Test func aFileIsPausedNotClosedWhileStill() throws {
        let picture = try PictureContent.load(path: Self.ball)
        let renderer = try Self.renderer(picture)
        let feed = try #require(PictureFeed(picture: picture))
        try feed.start()
        defer { feed.stop() }
        #expect(try feed.follow(.still, showingOn: renderer.effects)?.hasSuffix("paused while still") == true)
        #expect(feed.isOpen && !feed.isPlaying)
        #expect(try feed.follow(.full, showingOn: renderer.effects)?.hasSuffix("playing again") == true)
        #expect(feed.isPlaying)
    }

    @Test func liveFramesReplaceThePictureAsTheyCome() throws {
        let picture = PictureContent.pipeline(
            "videotestsrc is-live=true pattern=ball ! video/x-raw,width=32,height=24,framerate=30/1", fit: .stretch)
        let renderer = try Self.renderer(picture)
        let feed = try #require(PictureFeed(picture: picture))
        let placeholder = try renderer.render(Self.inputs)
        try feed.start()
        defer { feed.stop() }
        #expect(try feed.refresh(renderer.effects))
        let first = try renderer.render(Self.inputs)
        #expect(ImageDifference(placeholder, first).meanAbsolute > 1, "the first frame replaces the placeholder")
        var moved = false
        for _ in 0..<100 where !moved {
            Thread.sleep(forTimeInterval: 0.02)
            if try feed.refresh(renderer.effects) { moved = try renderer.render(Self.inputs) != first }
        }
        #expect(moved, "a later frame shows the ball elsewhere")
    }
}
