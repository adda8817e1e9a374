import CSDL2

/// SDL's key codes as the browser's `keyCode`, the numbers Shadertoy's keyboard texture is indexed by (what
/// shaders write: 37–40 for the arrows, 65–90 for A–Z, 32 for the space bar).
enum ShadertoyKeyCode {
    /// The browser's code for SDL key `sym`, or `nil` for a key the browser has none for.
    static func browserCode(sdl sym: SDL_Keycode) -> Int? {
        let s = Int(sym)
        switch s {
        // Letters: SDL gives the lower-case character; the browser the upper-case one.
        case 0x61...0x7A: return s - 0x20
        // Digits and the space bar are their characters in both.
        case 0x30...0x39, 0x20: return s
        default: break
        }
        return table[s]
    }

    /// Keys whose codes differ.
    private static let table: [Int: Int] = {
        var t: [Int: Int] = [
            Int(SDLK_BACKSPACE.rawValue): 8, Int(SDLK_TAB.rawValue): 9, Int(SDLK_RETURN.rawValue): 13,
            Int(SDLK_KP_ENTER.rawValue): 13, Int(SDLK_LSHIFT.rawValue): 16, Int(SDLK_RSHIFT.rawValue): 16,
            Int(SDLK_LCTRL.rawValue): 17, Int(SDLK_RCTRL.rawValue): 17, Int(SDLK_LALT.rawValue): 18,
            Int(SDLK_RALT.rawValue): 18, Int(SDLK_PAUSE.rawValue): 19, Int(SDLK_CAPSLOCK.rawValue): 20,
            Int(SDLK_ESCAPE.rawValue): 27, Int(SDLK_PAGEUP.rawValue): 33, Int(SDLK_PAGEDOWN.rawValue): 34,
            Int(SDLK_END.rawValue): 35, Int(SDLK_HOME.rawValue): 36, Int(SDLK_LEFT.rawValue): 37,
            Int(SDLK_UP.rawValue): 38, Int(SDLK_RIGHT.rawValue): 39, Int(SDLK_DOWN.rawValue): 40,
            Int(SDLK_INSERT.rawValue): 45, Int(SDLK_DELETE.rawValue): 46, Int(SDLK_LGUI.rawValue): 91,
            Int(SDLK_RGUI.rawValue): 92, Int(SDLK_KP_MULTIPLY.rawValue): 106, Int(SDLK_KP_PLUS.rawValue): 107,
            Int(SDLK_KP_MINUS.rawValue): 109, Int(SDLK_KP_PERIOD.rawValue): 110, Int(SDLK_KP_DIVIDE.rawValue): 111,
            Int(SDLK_NUMLOCKCLEAR.rawValue): 144, Int(SDLK_SCROLLLOCK.rawValue): 145,
            Int(SDLK_SEMICOLON.rawValue): 186, Int(SDLK_EQUALS.rawValue): 187, Int(SDLK_COMMA.rawValue): 188,
            Int(SDLK_MINUS.rawValue): 189, Int(SDLK_PERIOD.rawValue): 190, Int(SDLK_SLASH.rawValue): 191,
            Int(SDLK_BACKQUOTE.rawValue): 192, Int(SDLK_LEFTBRACKET.rawValue): 219, Int(SDLK_BACKSLASH.rawValue): 220,
            Int(SDLK_RIGHTBRACKET.rawValue): 221, Int(SDLK_QUOTE.rawValue): 222,
        ]
        // The keypad's digits: 96–105; F1–F12: 112–123.
        let keypad: [SDL_KeyCode] = [
            SDLK_KP_0, SDLK_KP_1, SDLK_KP_2, SDLK_KP_3, SDLK_KP_4, SDLK_KP_5, SDLK_KP_6, SDLK_KP_7, SDLK_KP_8,
            SDLK_KP_9,
        ]
        for (i, key) in keypad.enumerated() { t[Int(key.rawValue)] = 96 + i }
        let functions: [SDL_KeyCode] = [
            SDLK_F1, SDLK_F2, SDLK_F3, SDLK_F4, SDLK_F5, SDLK_F6, SDLK_F7, SDLK_F8, SDLK_F9, SDLK_F10, SDLK_F11,
            SDLK_F12,
        ]
        for (i, key) in functions.enumerated() { t[Int(key.rawValue)] = 112 + i }
        return t
    }()
}
