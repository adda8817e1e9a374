import Glibc
import Testing
import TiltDesktop

/// `tiltfx wallpaper --gnome`'s control channel: the GNOME Shell extension's lines on what covers each monitor.
struct ShellControlTests {
    @Test func linesSetEachOutputsStateAndTheScreenOverridesThem() {
        var control = ShellControl()
        #expect(control.visibility(of: "Meta-0") == nil)
        #expect(control.feed(Array("output Meta-0 fullscreen\noutput HDMI-1 covered\n".utf8)).isEmpty)
        #expect(control.visibility(of: "Meta-0") == .fullscreen)
        #expect(control.visibility(of: "HDMI-1") == .covered)
        #expect(control.visibility(of: "eDP-1") == nil)
        #expect(control.feed(Array("screen hidden\n".utf8)).isEmpty)
        #expect(control.visibility(of: "HDMI-1") == .hidden)
        #expect(control.visibility(of: "eDP-1") == .hidden)
        #expect(control.feed(Array("screen visible\r\noutput Meta-0 visible\n".utf8)).isEmpty)
        #expect(control.visibility(of: "Meta-0") == .visible)
        #expect(control.visibility(of: "HDMI-1") == .covered)
        #expect(control.feed(Array("output HDMI-1 hidden\n".utf8)).isEmpty)
        #expect(control.visibility(of: "HDMI-1") == .hidden)
    }

    @Test func aLineSplitAcrossReadsIsTakenWhenItEnds() {
        var control = ShellControl()
        #expect(control.feed(Array("output Me".utf8)).isEmpty)
        #expect(control.visibility(of: "Meta-0") == nil)
        #expect(control.feed(Array("ta-0 covered".utf8)).isEmpty)
        #expect(control.visibility(of: "Meta-0") == nil)
        #expect(control.feed([UInt8(ascii: "\n")]).isEmpty)
        #expect(control.visibility(of: "Meta-0") == .covered)
    }

    @Test func badLinesAreSaidAndSkippedAndTheNextOnesRead() {
        var control = ShellControl()
        let problems = control.feed(
            Array("hello\noutput Meta-0 dim\nscreen off\noutput\n\n   \noutput Meta-0 fullscreen\n".utf8))
        #expect(
            problems == [
                "unknown line 'hello'; the lines are 'output NAME visible|fullscreen|covered|hidden', "
                    + "'screen visible|hidden'",
                "expected 'output NAME visible|fullscreen|covered|hidden', got 'output Meta-0 dim'",
                "expected 'screen visible|hidden', got 'screen off'",
                "expected 'output NAME visible|fullscreen|covered|hidden', got 'output'",
            ])
        #expect(control.visibility(of: "Meta-0") == .fullscreen)
        #expect(!control.screenHidden)
    }

    @Test func anOverlongLineIsSkippedWholeWithoutGrowing() {
        var control = ShellControl()
        let long = "output " + String(repeating: "x", count: 5000) + " hidden\n"
        #expect(control.feed(Array(long.utf8)) == ["a line longer than 1024 bytes was skipped"])
        #expect(control.outputs.isEmpty)
        #expect(control.feed(Array("output A hidden\n".utf8)).isEmpty)
        #expect(control.visibility(of: "A") == .hidden)
    }

    @Test func theChannelReadsWhatIsThereWithoutWaitingAndEndsWithThePipe() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        var warnings: [String] = []
        let channel = ShellChannel(fd: ends[0], warn: { warnings.append($0) })
        defer { close(ends[0]) }
        // Nothing written: a read returns at once, nothing changed.
        #expect(!channel.read())
        #expect(!channel.ended)
        func write(_ text: String) { _ = text.withCString { Glibc.write(ends[1], $0, strlen($0)) } }
        write("output Meta-0 fullscreen\nnonsense\n")
        #expect(channel.read())
        #expect(channel.control.visibility(of: "Meta-0") == .fullscreen)
        #expect(warnings.count == 1 && warnings[0].hasPrefix("control channel: unknown line 'nonsense'"))
        // The same state again is no change.
        write("output Meta-0 fullscreen\n")
        #expect(!channel.read())
        close(ends[1])
        #expect(channel.read())
        #expect(channel.ended)
        #expect(!channel.read())
    }
}
