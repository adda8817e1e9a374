import ArgumentParser
import TiltCore
import TiltEffects
import TiltGL
import TiltImage
import TiltRender

/// `tiltfx bench`: headless frames per second per preset.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract:
            "Measure headless frames per second of each preset, and the passes it draws per frame (EGL, no display).")

    @OptionGroup var presets: PresetOptions

    @Option(name: .customLong("size"), help: "A size to measure, WxH (repeatable).")
    var sizes: [PixelSize] = [PixelSize(width: 1280, height: 720), PixelSize(width: 1920, height: 1080)]

    @Option(parsing: .unconditional, help: "Seconds per preset and size.")
    var seconds: Double = 2

    @Option(name: .customLong("preset"), help: "Only these presets (repeatable); default all.")
    var only: [String] = []

    @OptionGroup var picture: PictureOptions

    func validate() throws {
        try presets.requireDirectory()
        for size in sizes { if let problem = size.problem() { throw ValidationError(problem) } }
        guard seconds > 0, seconds.isFinite else {
            throw ValidationError("--seconds must be a positive number of seconds per preset and size, e.g. 2")
        }
    }

    func run() throws {
        let library = presets.library
        let names = only.isEmpty ? library.names : only
        let content = try picture.load()
        try StandardOutput.line("renderer: \(try Benchmark.rendererName())")
        if let content {
            let size = "\(content.image.width)x\(content.image.height)"
            let what = content.video == nil ? size : content.image.width > 1 ? "video, \(size), played live" : "live"
            try StandardOutput.line("picture: \(content.path) (\(what), --fit \(content.fit))")
        }
        for name in names {
            let preset = try library.load(name)
            for size in sizes {
                try StandardOutput.line(
                    "\(try Benchmark.measure(preset: preset, width: size.width, height: size.height, seconds: seconds, picture: content))"
                )
            }
        }
    }
}
