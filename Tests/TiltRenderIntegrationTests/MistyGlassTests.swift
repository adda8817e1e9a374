import Foundation
import Testing
import TiltEffects
import TiltGL
import TiltImage
import TiltRender
import TiltRenderTestKit
import TiltTestKit

/// misty-glass end to end, measured from the frames it draws: drops that run down an upright device and sideways
/// once it is turned, the pointer's wipe that fogs over again, a user's picture behind the glass.
@Suite(.serialized) struct MistyGlassTests {
    /// A frame read back: RGBA8 rows from the top.
    struct Frame {
        var rgba: [UInt8]
        var width: Int
        var height: Int

        /// Where this frame differs from `other` by more than `threshold` in some channel.
        func changed(from other: Frame, threshold: Int = 40) -> [Bool] {
            (0..<(width * height)).map { p in
                (0..<3).contains { c in abs(Int(rgba[4 * p + c]) - Int(other.rgba[4 * p + c])) > threshold }
            }
        }

        /// The mean absolute difference from `other` over the rectangle `x`×`y`.
        func difference(from other: Frame, x: Range<Int>, y: Range<Int>) -> Double {
            var total = 0
            for j in y {
                for i in x {
                    for c in 0..<3 {
                        total += abs(Int(rgba[4 * (j * width + i) + c]) - Int(other.rgba[4 * (j * width + i) + c]))
                    }
                }
            }
            return Double(total) / Double(3 * x.count * y.count)
        }
    }

    /// How streaky a mask is along each axis: the fraction of its set pixels whose neighbour `k` pixels below
    /// (vertical) or to the right (horizontal) is set too. Trails down the picture are vertical streaks.
    static func streaks(_ mask: [Bool], width: Int, height: Int, k: Int = 6) -> (vertical: Double, horizontal: Double) {
        var set = 0
        var down = 0
        var right = 0
        for y in 0..<(height - k) {
            for x in 0..<(width - k) where mask[y * width + x] {
                set += 1
                if mask[(y + k) * width + x] { down += 1 }
                if mask[y * width + x + k] { right += 1 }
            }
        }
        return (Double(down) / Double(max(set, 1)), Double(right) / Double(max(set, 1)))
    }

    @Test func dropsRunDownAnUprightDeviceAndSidewaysOnceItIsTurned() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx-misty")
        let (w, h, fps, count) = (480, 360, 10.0, 60)
        let r = try TiltFXProcess.run([
            "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "misty-glass", "--size",
            "\(w)x\(h)", "--frames", "\(count)", "--fps", "\(Int(fps))", "--replay",
            TestPaths.fixture("turn-left-up.csv"), "--out", dir.path,
        ])
        try #require(r.status == 0, "stderr: \(r.stderr)")
        let frames = try (0..<count).map { i in
            let png = try PNGFile.read(path: dir.appendingPathComponent(FrameSequenceJob.fileName(i)).path)
            return Frame(rgba: png.rgba, width: png.width, height: png.height)
        }
        /// Every pixel that changed between two consecutive frames of `range`.
        func motion(_ range: Range<Int>) -> [Bool] {
            var mask = Array(repeating: false, count: w * h)
            for i in range.dropLast() {
                for (p, changed) in frames[i + 1].changed(from: frames[i]).enumerated() where changed { mask[p] = true }
            }
            return mask
        }
        // Upright (0–2 s in the log): the drops run down the picture, leaving vertical trails.
        let upright = motion(1..<20)
        let down = Self.streaks(upright, width: w, height: h)
        #expect(upright.filter { $0 }.count > 300, "too little moved while upright")
        #expect(down.vertical > 1.3 * down.horizontal, "upright: \(down)")
        // Turned 90° clockwise about the screen's normal, left edge up (3–6 s): they run to the picture's right.
        let turned = motion(32..<60)
        let side = Self.streaks(turned, width: w, height: h)
        #expect(turned.filter { $0 }.count > 300, "too little moved once turned")
        #expect(side.horizontal > 1.3 * side.vertical, "turned: \(side)")
    }

    @Test func theSameInputsDrawTheSameFramesAndShakingLoosensDrops() throws {
        _ = GLTestEnvironment.configured
        let preset = try GLTestEnvironment.library.load("misty-glass")
        /// Frames 0…`count` of a glass held upright, shaken (rad/s) from frame 1.
        func frames(shake: Double, count: Int = 12) throws -> [Frame] {
            let renderer = try OffscreenRenderer(preset: preset, width: 400, height: 300)
            var inputs = FrameInputs(timeDelta: 0.1, size: [400, 300])
            inputs.gravity = [0, -9.80665, 0]
            return try (0...count).map { i in
                inputs.frame = i
                inputs.rotationRate = i > 0 ? [shake, 0, 0] : .zero
                return Frame(rgba: try renderer.render(inputs), width: 400, height: 300)
            }
        }
        /// How many pixels changed from frame to frame, in all.
        func motion(_ frames: [Frame]) -> Int {
            zip(frames, frames.dropFirst()).reduce(0) { $0 + $1.1.changed(from: $1.0).filter { $0 }.count }
        }
        let still = try frames(shake: 0)
        #expect(try frames(shake: 0).map(\.rgba) == still.map(\.rgba))
        // Shaken, the drops that held slide too: more of the glass changes from frame to frame.
        let shaken = try frames(shake: 5)
        #expect(shaken[0].rgba == still[0].rgba)
        #expect(motion(shaken) > 3 * motion(still) / 2, "shaken \(motion(shaken)), still \(motion(still))")
    }

    @Test func thePointerWipesTheMistWhichFogsOverAgain() throws {
        _ = GLTestEnvironment.configured
        let (w, h) = (160, 120)
        let renderer = try OffscreenRenderer(
            preset: try GLTestEnvironment.library.load("misty-glass"), width: w, height: h)
        // Lying flat: no drop slides.
        var inputs = FrameInputs(timeDelta: 0.1, size: [Double(w), Double(h)])
        func frame(_ i: Int, pointer: SIMD2<Double>? = nil) throws -> Frame {
            inputs.frame = i
            inputs.time = Double(i) * 0.1
            inputs.pointerDown = pointer != nil
            if let pointer { inputs.pointer = pointer }
            return Frame(rgba: try renderer.render(inputs), width: w, height: h)
        }
        let misted = try frame(0)
        _ = try frame(1, pointer: [50, 60])
        let wiped = try frame(2, pointer: [110, 60])
        let stroke = (x: 60..<100, y: 52..<68)
        let away = (x: 0..<160, y: 100..<120)
        let cleared = wiped.difference(from: misted, x: stroke.x, y: stroke.y)
        #expect(cleared > 8, "the wipe changed the stroke by \(cleared)")
        #expect(wiped.difference(from: misted, x: away.x, y: away.y) < 0.25 * cleared)
        // 14 s later (the mist regrows fully in 12.5 s) the stroke is misted again.
        var last = wiped
        for i in 3..<143 { last = try frame(i) }
        let regrown = last.difference(from: misted, x: stroke.x, y: stroke.y)
        #expect(regrown < 0.3 * cleared, "after 14 s the stroke still differs by \(regrown) (wiped: \(cleared))")
    }

    @Test func aUsersPictureIsSeenThroughTheGlass() throws {
        var pixels: [UInt8] = []
        for _ in 0..<48 {
            for x in 0..<64 { pixels += x < 32 ? [230, 30, 20, 255] : [20, 40, 230, 255] }
        }
        let picture = try TestPictures.file(
            try TestPictures.png(DecodedImage(width: 64, height: 48, pixels: pixels)), name: "halves.png")
        let out = TestPaths.temporaryDirectory("tiltfx-misty").appendingPathComponent("glass.png").path
        let r = try TiltFXProcess.run([
            "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "misty-glass", "--image", picture,
            "--size", "64x48", "--out", out,
        ])
        try #require(r.status == 0, "stderr: \(r.stderr)")
        let png = try PNGFile.read(path: out)
        func mean(_ x: Range<Int>, _ channel: Int) -> Double {
            var total = 0
            for y in 0..<48 { for i in x { total += Int(png.rgba[4 * (y * 64 + i) + channel]) } }
            return Double(total) / Double(48 * x.count)
        }
        // Red on the left and blue on the right, through the mist (blurred, hazed: neither pure).
        #expect(mean(0..<16, 0) > 2 * mean(0..<16, 2))
        #expect(mean(48..<64, 2) > 2 * mean(48..<64, 0))
        #expect(mean(0..<16, 0) < 230)
    }
}
