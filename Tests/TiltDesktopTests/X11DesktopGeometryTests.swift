import CXRandR
import Testing
import TiltCore

@testable import TiltDesktop

/// What `X11Desktop` computes without a server: RandR's rotations, and which monitor a window covers.
struct X11DesktopGeometryTests {
    @Test("RandR's rotation bits are the repository's ScreenRotation, reflections ignored")
    func randrRotation() {
        #expect(ScreenRotation(randr: Int(RR_Rotate_0)) == .normal)
        #expect(ScreenRotation(randr: Int(RR_Rotate_90)) == .left)
        #expect(ScreenRotation(randr: Int(RR_Rotate_180)) == .inverted)
        #expect(ScreenRotation(randr: Int(RR_Rotate_270)) == .right)
        #expect(ScreenRotation(randr: Int(RR_Rotate_90 | RR_Reflect_X)) == .left)
        #expect(ScreenRotation(randr: 0) == nil)
    }

    @Test("a window counts for a monitor when it covers more than half of it")
    func coversMost() {
        let left = X11Desktop.Rect(x: 0, y: 0, width: 640, height: 800)
        let screen = X11Desktop.Rect(x: 0, y: 0, width: 1280, height: 800)
        let right = X11Desktop.Rect(x: 640, y: 0, width: 640, height: 800)
        #expect(left.coversMost(of: left))
        #expect(!left.coversMost(of: screen), "half of the screen is not most of it")
        #expect(!left.coversMost(of: right), "touching is not covering")
        #expect(X11Desktop.Rect(x: 640, y: 30, width: 640, height: 770).coversMost(of: right), "a work area")
        #expect(screen.coversMost(of: right))
    }
}
