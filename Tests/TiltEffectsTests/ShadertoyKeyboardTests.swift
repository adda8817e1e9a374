import Testing
import TiltEffects

/// Shadertoy's keyboard texture as key events change it.
@Suite struct ShadertoyKeyboardTests {
    @Test("rows: held while down, pressed until the frame is drawn, toggled at each press; repeats change nothing")
    func transitions() {
        var k = ShadertoyKeyboard()
        #expect(k.texels.count == 768 && k.texels.allSatisfy { $0 == 0 })
        k.press(37)
        k.press(37)  // auto-repeat
        #expect(k.held[37] && k.pressed[37] && k.toggled[37])
        k.frameDrawn()
        #expect(k.held[37] && !k.pressed[37] && k.toggled[37])
        k.release(37)
        k.press(37)
        #expect(k.held[37] && k.pressed[37] && !k.toggled[37], "a second press toggles back")
        let texels = k.texels
        #expect(texels[37] == 255 && texels[256 + 37] == 255 && texels[512 + 37] == 0)
        #expect(texels.enumerated().allSatisfy { $0.offset % 256 == 37 || $0.element == 0 })
    }

    @Test("codes outside 0…255 are ignored")
    func outOfRange() {
        var k = ShadertoyKeyboard()
        k.press(-1)
        k.press(256)
        k.release(999)
        #expect(k == ShadertoyKeyboard())
    }
}
