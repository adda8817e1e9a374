import Testing
import TiltCore

/// ``ErrorLine``: the argument parser's sentences in the house style, their words kept.
struct ErrorLineTests {
    @Test("lowercase first letters, sentences joined by ';', a final full stop dropped; e.g. and GL left alone")
    func houseStyle() {
        #expect(
            ErrorLine.houseStyle("Unknown option '--bogus'. Did you mean '--out'?")
                == "unknown option '--bogus'; did you mean '--out'?")
        #expect(
            ErrorLine.houseStyle("The value '0x0' is invalid for '--size <size>'")
                == "the value '0x0' is invalid for '--size <size>'")
        #expect(
            ErrorLine.houseStyle("Missing expected argument '--out <out>'.")
                == "missing expected argument '--out <out>'")
        #expect(ErrorLine.houseStyle("--size: give WxH, e.g. 1280x720") == "--size: give WxH, e.g. 1280x720")
        #expect(ErrorLine.houseStyle("GL limit reached. Try less") == "GL limit reached; try less")
    }
}
