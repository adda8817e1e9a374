import Foundation
import TiltEffects
import TiltGL
import TiltRender
import TiltTestKit

/// Shared set-up for tests that render (the in-process ones in TiltRenderTests and the tiltfx ones in
/// TiltRenderIntegrationTests): Mesa software rendering with no display, and the repository's presets.
public enum GLTestEnvironment {
    /// Forces EGL's surfaceless platform and llvmpipe, once, before any context is made.
    public static let configured: Bool = {
        setenv("EGL_PLATFORM", "surfaceless", 0)
        setenv("LIBGL_ALWAYS_SOFTWARE", "1", 0)
        setenv("GALLIUM_DRIVER", "llvmpipe", 0)
        ShaderCompatibility.prepareEnvironment()
        return true
    }()

    /// The repository's `Presets/`.
    public static var presetsDirectory: String { TestPaths.repositoryRoot.appendingPathComponent("Presets").path }

    /// A library over the repository's presets only.
    package static var library: PresetLibrary { PresetLibrary(searchPaths: [presetsDirectory]) }

    /// `Tests/TiltRenderTests/Golden/`.
    public static var goldenDirectory: URL {
        TestPaths.repositoryRoot.appendingPathComponent("Tests/TiltRenderTests/Golden")
    }

    /// Renders `preset` at `size`×`size` and `tilt`, returning RGBA8 pixels.
    public static func render(_ preset: String, size: Int, tilt: SIMD2<Double>, time: Double = 0) throws -> [UInt8] {
        _ = configured
        let renderer = try OffscreenRenderer(preset: try library.load(preset), width: size, height: size)
        return try renderer.render(FrameInputs(time: time, size: SIMD2(Double(size), Double(size)), tilt: tilt))
    }

    /// Copies a repository preset into a fresh temporary folder (to break or edit it).
    public static func copyPreset(_ name: String) throws -> (root: String, directory: String) {
        let root = TestPaths.temporaryDirectory("tiltfx")
        let target = root.appendingPathComponent(name)
        try FileManager.default.copyItem(atPath: presetsDirectory + "/" + name, toPath: target.path)
        return (root.path, target.path)
    }
}
