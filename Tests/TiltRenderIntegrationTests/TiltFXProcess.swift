import Foundation
import TiltTestKit

/// Runs the built `tiltfx` and captures what it prints.
struct TiltFXProcess {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Runs `tiltfx arguments…` with software GL and no display, waiting for it to finish.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> TiltFXProcess {
        var env = ["EGL_PLATFORM": "surfaceless", "LIBGL_ALWAYS_SOFTWARE": "1", "TILT_PRESETS": ""]
        env.merge(environment) { $1 }
        let child = try ChildProcess.run(TestPaths.executable("tiltfx"), arguments, environment: env)
        return TiltFXProcess(status: child.status, stdout: child.stdout, stderr: child.stderr)
    }
}
