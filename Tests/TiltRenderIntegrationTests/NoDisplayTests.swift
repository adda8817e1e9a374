import Foundation
import Testing
import TiltRender
import TiltRenderTestKit
import TiltTestKit

/// `tiltfx run` with no display says so and suggests the headless paths; `run --headless` says when no tiltd answers.
@Suite(.serialized) struct NoDisplayTests {
    @Test func noDisplayVariableIsAProblemUnlessADriverIsNamed() throws {
        let problem = try #require(DisplayCheck.problem(environment: ["DISPLAY": "", "HOME": "/root"]))
        #expect(problem.contains("no display") && problem.contains("--headless") && problem.contains("tiltfx render"))
        #expect(DisplayCheck.problem(environment: ["DISPLAY": ":0"]) == nil)
        #expect(DisplayCheck.problem(environment: ["WAYLAND_DISPLAY": "wayland-0"]) == nil)
        #expect(DisplayCheck.problem(environment: ["SDL_VIDEODRIVER": "offscreen"]) == nil)
    }

    @Test func anInvisibleDriverSDLChoseIsAProblemOneAskedForIsNot() {
        #expect(DisplayCheck.problem(driver: "offscreen", environment: [:])?.contains("'offscreen'") == true)
        #expect(DisplayCheck.problem(driver: "dummy", environment: [:]) != nil)
        #expect(DisplayCheck.problem(driver: "x11", environment: [:]) == nil)
        #expect(DisplayCheck.problem(driver: "offscreen", environment: ["SDL_VIDEODRIVER": "offscreen"]) == nil)
    }

    @Test func runWithoutADisplayExitsAtOnceSuggestingHeadless() throws {
        let started = Date()
        let r = try TiltFXProcess.run(
            [
                "run", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "foil", "--size", "32x32",
                "--seconds", "20", "--socket", "/tmp/tiltfx-no-daemon-\(getpid()).sock",
            ], environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": ""])
        #expect(r.status != 0)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(r.stderr.contains("no display"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("tiltfx run --headless") && r.stderr.contains("tiltfx render"), "\(r.stderr)")
    }

    @Test func headlessWithoutTiltdSaysWhatItFallsBackTo() throws {
        let socket = "/tmp/tiltfx-no-daemon-\(getpid()).sock"
        let r = try TiltFXProcess.run([
            "run", "--headless", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "foil", "--size",
            "16x16", "--seconds", "1.8", "--fps", "10", "--socket", socket,
        ])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("no tiltd answers at \(socket)"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("drawing with no motion"), "stderr: \(r.stderr)")
    }
}
