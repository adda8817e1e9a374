import Testing

@testable import TiltRender

/// SDL's key codes as the browser's, which Shadertoy's keyboard texture is indexed by. SDL's values are written out
/// here (SDL_keycode.h: a character's code, or 2³⁰ | its scancode).
@Suite struct ShadertoyKeyCodeTests {
    static func scancode(_ n: Int32) -> Int32 { 0x4000_0000 | n }

    @Test(
        "letters, digits, arrows, keypad, function and control keys",
        arguments: [
            (Int32(0x61), 65), (0x7A, 90), (0x30, 48), (0x39, 57), (0x20, 32), (13, 13), (27, 27), (8, 8), (9, 9),
            (scancode(0x50), 37), (scancode(0x52), 38), (scancode(0x4F), 39), (scancode(0x51), 40),
            (scancode(0x3A), 112), (scancode(0x45), 123), (scancode(0x62), 96), (scancode(0x61), 105),
            (scancode(0xE1), 16), (scancode(0xE0), 17), (scancode(0xE2), 18), (0x2C, 188), (0x2F, 191),
        ])
    func mapped(sdl: Int32, browser: Int) {
        #expect(ShadertoyKeyCode.browserCode(sdl: sdl) == browser)
    }

    @Test("a key the browser has no code for gives none")
    func unmapped() {
        #expect(ShadertoyKeyCode.browserCode(sdl: Self.scancode(0x7F)) == nil)  // mute
    }
}
