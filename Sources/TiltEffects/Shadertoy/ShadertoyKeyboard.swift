/// Shadertoy's keyboard input: a 256 × 3 texture, one texel per key code (the browser's `keyCode`: 65 for A, 37–40
/// for the arrows, 32 for the space bar), read from the red channel: row 0 is 1 while the key is held, row 1 is 1 in
/// the one frame after it went down, row 2 flips each time it goes down (issue 32).
///
/// A window's key events go in with ``press(_:)`` and ``release(_:)`` between frames; ``frameDrawn()`` after each
/// frame clears row 1. Headless runs and the wallpaper have no keyboard: every key is up.
package struct ShadertoyKeyboard: Sendable, Hashable {
    /// Key codes: 0 … 255.
    package static let width = 256
    /// Held, pressed this frame, toggled.
    package static let height = 3

    package private(set) var held = [Bool](repeating: false, count: width)
    package private(set) var pressed = [Bool](repeating: false, count: width)
    package private(set) var toggled = [Bool](repeating: false, count: width)

    package init() {}

    /// The key `code` went down (a key already held, the system's auto-repeat, changes nothing).
    package mutating func press(_ code: Int) {
        guard (0..<Self.width).contains(code), !held[code] else { return }
        held[code] = true
        pressed[code] = true
        toggled[code].toggle()
    }

    /// The key `code` went up.
    package mutating func release(_ code: Int) {
        guard (0..<Self.width).contains(code) else { return }
        held[code] = false
    }

    /// A frame was drawn with this state: "pressed this frame" is over.
    package mutating func frameDrawn() {
        if pressed.contains(true) { pressed = [Bool](repeating: false, count: Self.width) }
    }

    /// The texture's bytes, one per texel (R8), row 0 first: 255 for a 1.
    package var texels: [UInt8] {
        (held + pressed + toggled).map { $0 ? 255 : 0 }
    }
}
