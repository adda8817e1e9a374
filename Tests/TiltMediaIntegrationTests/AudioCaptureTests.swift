import Foundation
import Testing
import TiltCore
import TiltTestKit

@testable import TiltMedia

extension AudioTests {
    /// The error `capture` fails to open with, or `nil` when it opens (it is then closed again).
    static func openingError(_ capture: AudioCapture) -> MediaError? {
        do {
            try capture.open()
            capture.close()
            return nil
        } catch {
            #expect(!capture.isOpen, "closed after failing")
            return error
        }
    }

    /// Calls `capture.latest()` until at least `count` samples have come in all, or `seconds` pass.
    /// - Returns: the last window read.
    static func latestAfter(_ count: Int, from capture: AudioCapture, seconds: Double = 30) -> [Float] {
        let deadline = Deadline(seconds: seconds)
        var window = capture.latest()
        while capture.samplesReceived < count && !deadline.hasPassed {
            Thread.sleep(forTimeInterval: 0.01)
            window = capture.latest()
        }
        return window
    }

    /// Live sound through GStreamer: a test source standing in for a microphone, and what is said when there is none.
    @Suite(.serialized) struct AudioCaptureTests {
        @Test func aLiveToneIsHeardInItsBin() throws {
            let capture = AudioCapture(
                pipeline: "audiotestsrc is-live=true freq=\(AudioTests.binCentre(60)) wave=sine volume=0.05",
                startTimeout: 20)
            try capture.open()
            defer { capture.close() }
            #expect(capture.isOpen)
            // Four windows' worth, so that the window read is full of the tone.
            let window = AudioTests.latestAfter(4 * 1024, from: capture)
            #expect(capture.samplesReceived >= 4 * 1024, "samples in 30 s: \(capture.samplesReceived)")
            #expect(window.count == 1024)
            #expect(AudioTests.peak(AudioSpectrum.texels(window)) == 60)
            #expect(capture.latest(count: 3000).count == 3000, "a longer window than the ring holds at first")
            #expect(capture.stopReason == nil)
        }

        @Test func beforeAnySoundTheWindowIsSilence() throws {
            let capture = AudioCapture(pipeline: "audiotestsrc is-live=true")
            #expect(!capture.isOpen)
            #expect(capture.latest() == [Float](repeating: 0, count: 1024))
            #expect(capture.latest(count: 10) == [Float](repeating: 0, count: 10))
            #expect(AudioSpectrum.texels(capture.latest()) == AudioSpectrum.silence)
            #expect(capture.samplesReceived == 0)
        }

        @Test func aCaptureClosesAndOpensAgain() throws {
            let capture = AudioCapture(pipeline: "audiotestsrc is-live=true wave=sine", startTimeout: 20)
            try capture.open()
            try capture.open()  // already open: nothing happens
            #expect(capture.isOpen)
            capture.close()
            #expect(!capture.isOpen)
            #expect(capture.latest() == [Float](repeating: 0, count: 1024), "closed: silence")
            try capture.open()
            #expect(capture.isOpen)
            let received = capture.samplesReceived
            _ = AudioTests.latestAfter(received + 2048, from: capture)
            #expect(capture.samplesReceived >= received + 2048)
            capture.close()
        }

        @Test func aPipelineThatCannotBeBuiltIsNamed() throws {
            let error = try #require(AudioTests.openingError(AudioCapture(pipeline: "nosuchelement")))
            #expect(error == .audioPipeline(description: "nosuchelement", reason: "no element \"nosuchelement\""))
            #expect(
                error.description
                    == "cannot use the audio pipeline 'nosuchelement': no element \"nosuchelement\"; check it with "
                    + "`gst-launch-1.0 nosuchelement ! audioconvert ! autoaudiosink` and `gst-inspect-1.0`")
        }

        /// Capture elements asked for a device that is not there, each tried where it is installed (Debian's
        /// gstreamer1.0-alsa holds alsasrc; pulsesrc and osssrc are in gstreamer1.0-plugins-good).
        @Test(.enabled(if: MediaFramework.hasElement("alsasrc"), "alsasrc is not installed (gstreamer1.0-alsa)"))
        func anALSADeviceThatDoesNotExistIsNoCaptureDevice() throws {
            try Self.noCaptureDevice("alsasrc device=hw:99,0")
        }

        @Test(.enabled(if: MediaFramework.hasElement("pulsesrc"), "pulsesrc is not installed"))
        func aPulseServerThatDoesNotExistIsNoCaptureDevice() throws {
            try Self.noCaptureDevice("pulsesrc server=unix:/nonexistent/tilt-no-pulse")
        }

        @Test(.enabled(if: MediaFramework.hasElement("osssrc"), "osssrc is not installed"))
        func anOSSDeviceThatDoesNotExistIsNoCaptureDevice() throws {
            try Self.noCaptureDevice("osssrc device=/nonexistent/dsp")
        }

        /// Opening a capture from `description`, a device that is not there, is "no audio capture device".
        static func noCaptureDevice(_ description: String) throws {
            let started = Date()
            let capture = AudioCapture(pipeline: description)
            let error = try #require(AudioTests.openingError(capture))
            guard case .noAudioCapture(description, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(!reason.isEmpty)
            #expect(
                error.description.hasPrefix("no audio capture device (\(description): \(reason)); plug in a microphone")
            )
            #expect(error.description.hasSuffix("; the shader hears silence"))
            #expect(!error.description.contains("\n"))
            // Said at once or at the start timeout, not after some longer wait (a loose bound for a busy machine).
            #expect(Date().timeIntervalSince(started) < 60)
            #expect(capture.latest() == [Float](repeating: 0, count: 1024))
        }

        @Test func theDefaultDeviceOpensOrSaysThereIsNone() throws {
            // The machine may have a microphone or not (a build machine has none): either is right, and none is said
            // as no capture device.
            let capture = AudioCapture()
            #expect(capture.source == "autoaudiosrc" && capture.isDefaultDevice)
            guard let error = AudioTests.openingError(capture) else { return }
            guard case .noAudioCapture("autoaudiosrc", let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(
                error.description
                    == "no audio capture device (autoaudiosrc: \(reason)); plug in a microphone or check PulseAudio/"
                    + "PipeWire/ALSA (`pactl list short sources`, `arecord -l`); the shader hears silence")
        }

        @Test func aPipelineThatEndsHasStopped() throws {
            let capture = AudioCapture(
                pipeline: "audiotestsrc is-live=true num-buffers=5 samplesperbuffer=441", startTimeout: 20)
            try capture.open()
            let deadline = Deadline(seconds: 30)
            while capture.isOpen && !deadline.hasPassed {
                _ = capture.latest()
                Thread.sleep(forTimeInterval: 0.01)
            }
            #expect(!capture.isOpen)
            #expect(
                capture.stopReason
                    == .audioPipeline(
                        description: "audiotestsrc is-live=true num-buffers=5 samplesperbuffer=441",
                        reason: "it ended (end of stream)"))
            #expect(capture.latest() == [Float](repeating: 0, count: 1024))
            try capture.open()
            #expect(capture.stopReason == nil, "opened again")
            capture.close()
        }

        @Test func aPipelineThatGivesNoSoundTimesOut() throws {
            // A live source held back by a valve: it starts, and no sound ever comes.
            let description = "audiotestsrc is-live=true ! valve drop=true"
            let error = try #require(AudioTests.openingError(AudioCapture(pipeline: description, startTimeout: 0.5)))
            #expect(error == .audioPipeline(description: description, reason: "no sound came in 0.5 s"))
        }
    }
}
