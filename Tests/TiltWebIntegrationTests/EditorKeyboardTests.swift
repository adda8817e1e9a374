import Foundation
import Testing
import TiltTestKit

/// The editor with the keyboard alone, in headless Chromium: real key events through the DevTools protocol.
@Suite(
    "Editor keyboard in Chromium", .serialized,
    .enabled(if: HeadlessChromium.isAvailable, "chromium is not installed (scripts/bootstrap installs it)"))
struct EditorKeyboardTests {
    /// Presses `key` (a DOM key name) with `modifiers` (1 Alt, 2 Ctrl, 8 Shift), down then up.
    static func press(_ browser: HeadlessChromium, _ key: String, code: String, keyCode: Int, modifiers: Int = 0)
        throws
    {
        for type in ["rawKeyDown", "keyUp"] {
            try browser.call(
                "Input.dispatchKeyEvent",
                [
                    "type": type, "key": key, "code": code, "windowsVirtualKeyCode": keyCode, "modifiers": modifiers,
                ])
        }
    }

    @Test(
        "Tab reaches the code; Ctrl+Enter compiles and marks the error, Ctrl+S refused, then saved, Alt+2 switches file"
    )
    func keyboardOnly() throws {
        let pages = try ServedPages()
        let browser = try HeadlessChromium()
        try browser.open(pages.page("index.html", "preset=holo-card"))
        let opened = eventually(timeout: 30) {
            (try? browser.evaluate("document.getElementById('code').value.length > 0", timeout: 5)) as? Bool == true
        }
        try #require(opened, "the editor did not open holo-card")

        // Tab from the top of the page reaches the code area (preset list, buttons and tabs come first).
        var reached = false
        for _ in 0..<12 where !reached {
            try Self.press(browser, "Tab", code: "Tab", keyCode: 9)
            reached = try browser.evaluate("document.activeElement?.id === 'code'") as? Bool == true
        }
        #expect(reached, "Tab never reached the code area")

        // Type a bad first line and compile with Ctrl+Enter (before the debounced compile would).
        try browser.evaluate("document.getElementById('code').setSelectionRange(0, 0)")
        try browser.call("Input.insertText", ["text": "oops\n"])
        try Self.press(browser, "Enter", code: "Enter", keyCode: 13, modifiers: 2)
        let marked = eventually(timeout: 20) {
            (try? browser.evaluate("!!document.querySelector('#gutter .error[data-line=\"1\"]')", timeout: 5))
                as? Bool == true
        }
        #expect(marked, "no error marker on line 1 after Ctrl+Enter")

        // Ctrl+S asks the server to save; it refuses code that does not compile, and the status line says so.
        try Self.press(browser, "s", code: "KeyS", keyCode: 83, modifiers: 2)
        let refused = eventually(timeout: 20) {
            (try? browser.evaluate("document.getElementById('status-text').textContent", timeout: 5) as? String)?
                .hasPrefix("not saved") == true
        }
        let status = try browser.evaluate("document.getElementById('status-text').textContent")
        #expect(refused, "Ctrl+S did not report the refused save; the status line: \(status ?? "nil")")
        let onDisk = try String(
            contentsOf: pages.presets.appendingPathComponent("holo-card/card.glsl"), encoding: .utf8)
        #expect(!onDisk.hasPrefix("oops"))

        // Undo the bad line (Ctrl+Z), add a comment at the end, and save: now it is written.
        try Self.press(browser, "z", code: "KeyZ", keyCode: 90, modifiers: 2)
        try browser.evaluate(
            "(() => { const c = document.getElementById('code'); c.setSelectionRange(c.value.length, c.value.length); })()"
        )
        try browser.call("Input.insertText", ["text": "// edited from the keyboard\n"])
        try Self.press(browser, "s", code: "KeyS", keyCode: 83, modifiers: 2)
        let saved = eventually(timeout: 20) {
            (try? browser.evaluate("document.getElementById('status-text').textContent", timeout: 5) as? String)?
                .hasPrefix("saved") == true
        }
        #expect(saved, "Ctrl+S did not save the repaired file")
        let written = try String(
            contentsOf: pages.presets.appendingPathComponent("holo-card/card.glsl"), encoding: .utf8)
        #expect(written.hasSuffix("// edited from the keyboard\n") && !written.hasPrefix("oops"))

        // Alt+2 opens the second file's tab and leaves the focus in the code.
        try Self.press(browser, "2", code: "Digit2", keyCode: 50, modifiers: 1)
        let selected = try browser.evaluate(
            "document.querySelector('#tabs [aria-selected=\"true\"]').textContent + '|' + document.activeElement.id")
        #expect((selected as? String)?.hasPrefix("preset.json") == true, "\(selected ?? "nil")")
        #expect((selected as? String)?.hasSuffix("|code") == true, "\(selected ?? "nil")")
    }
}
