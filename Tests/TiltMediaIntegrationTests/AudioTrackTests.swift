import Foundation
import Testing
import TiltCore
import TiltTestKit

@testable import TiltMedia

extension AudioTests {
    /// A fresh temporary folder for generated media.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tilt-audio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs `gst-launch-1.0` with `arguments` (the pipeline), failing the test with what it printed when it fails.
    static func gstLaunch(_ arguments: [String]) throws {
        let run = try ChildProcess.run("/usr/bin/env", ["gst-launch-1.0", "-q"] + arguments, timeout: 120)
        guard run.status == 0 else {
            throw TestError("gst-launch-1.0 \(arguments.joined(separator: " ")) failed: \(run.stderr)\(run.stdout)")
        }
    }

    /// A file in `folder` of `seconds` of a sine at the centre of spectrum bin `bin` (44.1 kHz, mono, at 5% of full
    /// scale), encoded by GStreamer through `encoder` (`wavenc`, `vorbisenc ! oggmux`, `lamemp3enc`).
    static func tone(
        in folder: URL, name: String, bin: Int = 40, seconds: Int = 2, encoder: String = "wavenc"
    ) throws -> String {
        let path = folder.appendingPathComponent(name).path
        // 441 samples a buffer, 100 buffers a second: exactly `seconds` of sound.
        try gstLaunch(
            [
                "audiotestsrc", "wave=sine", "freq=\(binCentre(bin))", "volume=0.05", "samplesperbuffer=441",
                "num-buffers=\(100 * seconds)", "!", "audio/x-raw,rate=44100,channels=1", "!", "audioconvert", "!",
            ] + encoder.split(separator: " ").map(String.init) + ["!", "filesink", "location=\(path)"])
        return path
    }

    /// A 16-bit PCM WAV file of `samples` (mono, -1…1) at `rate`, header and all written here.
    static func wav(_ samples: [Float], rate: Int = 44100, at path: String) throws {
        var bytes: [UInt8] = []
        func put32(_ value: Int) { bytes += withUnsafeBytes(of: UInt32(value).littleEndian, Array.init) }
        func put16(_ value: Int) { bytes += withUnsafeBytes(of: UInt16(value).littleEndian, Array.init) }
        let dataSize = samples.count * 2
        bytes += Array("RIFF".utf8)
        put32(36 + dataSize)
        bytes += Array("WAVEfmt ".utf8)
        put32(16)
        put16(1)  // PCM
        put16(1)  // mono
        put32(rate)
        put32(rate * 2)  // bytes a second
        put16(2)  // bytes a frame
        put16(16)  // bits a sample
        bytes += Array("data".utf8)
        put32(dataSize)
        for sample in samples {
            let value = Int16((max(-1, min(1, sample)) * 32767).rounded())
            bytes += withUnsafeBytes(of: value.littleEndian, Array.init)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// The error `AudioTrack(path:)` throws, or `nil` when it decodes.
    static func trackError(_ path: String, stallTimeout: Double = 10) -> MediaError? {
        do {
            _ = try AudioTrack(path: path, sampleRate: 44100, maximumSeconds: 600, stallTimeout: stallTimeout)
            return nil
        } catch {
            return error
        }
    }

    /// Whole audio files decoded through GStreamer, looped, and what is said when one does not decode.
    @Suite(.serialized) struct AudioTrackTests {
        @Test func aToneDecodesToItsDurationAndPeaksInItsBin() throws {
            let path = try AudioTests.tone(in: AudioTests.folder(), name: "tone.wav")
            let track = try AudioTrack(path: path)
            #expect(track.path == path && track.sampleRate == 44100)
            #expect(abs(track.duration - 2) < 0.01, "\(track.duration) s")
            #expect(!track.isTruncated && track.notice == nil)
            for time in [0.1, 1.0, 1.99] {
                let window = track.window(endingAt: time)
                #expect(window.count == 1024)
                #expect(AudioTests.peak(AudioSpectrum.texels(window)) == 40, "at \(time) s")
            }
            // A tone at 5% of full scale: the waveform row swings about ±6 around 128.
            let waveform = AudioTests.waveform(AudioSpectrum.texels(track.window(endingAt: 1)))
            #expect(waveform.max()! >= 133 && waveform.max()! <= 135 && waveform.min()! >= 121, "\(waveform)")
            // Another rate: the same tone in the bin of its frequency at 22050 Hz (bin 80).
            let slower = try AudioTrack(path: path, sampleRate: 22050)
            #expect(abs(slower.duration - 2) < 0.01)
            #expect(AudioTests.peak(AudioSpectrum.texels(slower.window(endingAt: 1))) == 80)
        }

        @Test func theTrackLoops() throws {
            let path = try AudioTests.tone(in: AudioTests.folder(), name: "loop.wav", bin: 25)
            let track = try AudioTrack(path: path)
            let duration = track.duration
            for time in [0.5, 0.0234, 1.25, 1.9999] {
                let once = track.window(endingAt: time)
                #expect(track.window(endingAt: duration + time) == once, "one loop after \(time) s")
                #expect(track.window(endingAt: 7 * duration + time) == once, "seven loops after \(time) s")
            }
            // Across the loop's seam: the end of the track, then its start.
            let seam = track.window(endingAt: duration + 0.01, count: 882)
            #expect(Array(seam[0..<441]) == Array(track.samples.suffix(441)))
            #expect(Array(seam[441...]) == Array(track.samples.prefix(441)))
            #expect(track.window(endingAt: duration) == Array(track.samples.suffix(1024)))
        }

        @Test func beforeTheStartIsSilence() throws {
            let path = try AudioTests.tone(in: AudioTests.folder(), name: "start.wav")
            let track = try AudioTrack(path: path)
            #expect(track.window(endingAt: 0) == [Float](repeating: 0, count: 1024))
            #expect(track.window(endingAt: -3) == [Float](repeating: 0, count: 1024))
            #expect(track.window(endingAt: .nan) == [Float](repeating: 0, count: 1024))
            // 10 ms in: 441 samples played, after 583 of silence.
            let early = track.window(endingAt: 0.01)
            #expect(early[0..<583].allSatisfy { $0 == 0 })
            #expect(Array(early[583...]) == Array(track.samples.prefix(441)))
            #expect(track.window(endingAt: 1, count: 0) == [])
            #expect(track.window(endingAt: 1, count: 100_000).count == 100_000)
        }

        @Test func aToneThenSilenceIsHeardWhereItIs() throws {
            // Half a second of a bin-centred tone, then a second and a half of exact zeros, in a WAV made here.
            let tone = AudioTests.sine(AudioTests.binCentre(40), amplitude: 0.25, count: 22050)
            let path = try AudioTests.folder().appendingPathComponent("tone-then-silence.wav").path
            try AudioTests.wav(tone + [Float](repeating: 0, count: 66150), at: path)
            let track = try AudioTrack(path: path)
            #expect(track.samples.count == 88200)
            #expect(AudioTests.peak(AudioSpectrum.texels(track.window(endingAt: 0.25))) == 40)
            #expect(AudioSpectrum.texels(track.window(endingAt: 1.5)) == AudioSpectrum.silence)
            // The samples are the file's, to 16 bits.
            #expect(abs(track.samples[100] - tone[100]) < 1.0 / 32767 + 1e-6)
        }

        @Test(.enabled(if: MediaFramework.hasElement("vorbisenc"), "no vorbisenc to make an .ogg file with"))
        func oggVorbisDecodes() throws {
            try Self.compressedFileDecodes(encoder: "vorbisenc ! oggmux", suffix: "ogg")
        }

        @Test(.enabled(if: MediaFramework.hasElement("lamemp3enc"), "no lamemp3enc to make an .mp3 file with"))
        func mp3Decodes() throws {
            try Self.compressedFileDecodes(encoder: "lamemp3enc", suffix: "mp3")
        }

        @Test(.enabled(if: MediaFramework.hasElement("flacenc"), "no flacenc to make a .flac file with"))
        func flacDecodes() throws {
            try Self.compressedFileDecodes(encoder: "flacenc", suffix: "flac")
        }

        /// A two-second tone encoded by `encoder` into a `.suffix` file decodes to its length and its bin.
        static func compressedFileDecodes(encoder: String, suffix: String) throws {
            let path = try AudioTests.tone(in: AudioTests.folder(), name: "tone.\(suffix)", encoder: encoder)
            let track = try AudioTrack(path: path)
            // Encoders and decoders may add or drop a frame's worth of padding.
            #expect(abs(track.duration - 2) < 0.1, "\(track.duration) s")
            #expect(AudioTests.peak(AudioSpectrum.texels(track.window(endingAt: 1))) == 40)
        }

        @Test func aLongFileIsCutAtTheMaximumAndSaysSo() throws {
            let path = try AudioTests.tone(in: AudioTests.folder(), name: "long.wav")
            let cut = try AudioTrack(path: path, maximumSeconds: 0.5)
            #expect(cut.isTruncated)
            #expect(cut.samples.count == 22050 && cut.duration == 0.5)
            #expect(cut.notice == .audioTruncated(path: path, maximumSeconds: 0.5))
            #expect(
                cut.notice?.description
                    == "audio \(path) is longer than 0.5 s: only its first 0.5 s are used (and loop); cut it shorter "
                    + "to hear all of it")
            #expect(cut.window(endingAt: 0.7) == cut.window(endingAt: 0.2), "the kept part loops")
            #expect(
                MediaError.audioTruncated(path: "a.ogg", maximumSeconds: 600).description.hasPrefix(
                    "audio a.ogg is longer than 600 s: only its first 600 s are used"))
            // Exactly as long as the maximum: whole.
            let whole = try AudioTrack(path: path, maximumSeconds: 2)
            #expect(!whole.isTruncated && whole.samples.count == 88200 && whole.notice == nil)
        }

        @Test func aMissingFileIsUnreadable() throws {
            let path = try AudioTests.folder().appendingPathComponent("no-such-song.ogg").path
            let error = try #require(AudioTests.trackError(path))
            guard case .audio(path, .unreadable, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(reason.hasSuffix(": \(String(cString: strerror(ENOENT)))"), "\(reason)")
            #expect(error.description.hasPrefix("cannot use audio \(path): "), "\(error)")
            #expect(error.description.hasSuffix("; check the path and its permissions"), "\(error)")
            #expect(!error.description.contains("\n"))
            // A folder is no file either.
            let folder = try AudioTests.folder().path
            guard case .audio(folder, .unreadable, _)? = AudioTests.trackError(folder) else {
                Issue.record("\(String(describing: AudioTests.trackError(folder)))")
                return
            }
        }

        @Test func aTextFileIsNotSound() throws {
            let path = try temporaryFile(Array("just words, no sound\n".utf8), name: "song.mp3")
            let error = try #require(AudioTests.trackError(path))
            #expect(error == .audio(path: path, problem: .unknownType, reason: "Could not determine type of stream"))
            #expect(
                error.description
                    == "cannot use audio \(path): not a sound file GStreamer knows (Could not determine type of stream); "
                    + "give a sound file (WAV, Ogg Vorbis, Opus, FLAC, MP3, …)")
        }

        @Test func aVideoWithoutSoundHoldsNoSound() throws {
            let error = try #require(AudioTests.trackError(ballVideo))
            #expect(error == .audio(path: ballVideo, problem: .notAudio, reason: "only video/x-raw"))
            #expect(
                error.description
                    == "cannot use audio \(ballVideo): it holds no sound (only video/x-raw); give a sound file (WAV, Ogg "
                    + "Vorbis, Opus, FLAC, MP3, …)")
        }

        @Test(
            .enabled(
                if: MediaFramework.hasElement("vp8enc") && MediaFramework.hasElement("vorbisenc"),
                "no vp8enc or vorbisenc to make a WebM with"))
        func aVideosSoundtrackIsDecodedAndItsPicturesLeftAlone() throws {
            let path = try AudioTests.folder().appendingPathComponent("clip.webm").path
            try AudioTests.gstLaunch([
                "webmmux", "name=mux", "!", "filesink", "location=\(path)",
                "videotestsrc", "num-buffers=30", "!", "video/x-raw,width=32,height=24,framerate=15/1", "!", "vp8enc",
                "!", "mux.",
                "audiotestsrc", "wave=sine", "freq=\(AudioTests.binCentre(40))", "volume=0.05", "samplesperbuffer=441",
                "num-buffers=200", "!", "audio/x-raw,rate=44100,channels=1", "!", "audioconvert", "!", "vorbisenc", "!",
                "mux.",
            ])
            let track = try AudioTrack(path: path)
            #expect(abs(track.duration - 2) < 0.1, "\(track.duration) s")
            #expect(AudioTests.peak(AudioSpectrum.texels(track.window(endingAt: 1))) == 40)
        }

        @Test(
            .enabled(
                if: !["avdec_aac", "faad", "fdkaacdec"].contains(where: MediaFramework.hasElement),
                "an AAC decoder is installed"))
        func soundWithoutADecoderSaysWhatToInstall() throws {
            // ADTS frames of AAC (GStreamer recognises and parses them with the good plugins; decoding them needs
            // gstreamer1.0-libav or the bad plugins).
            var bytes: [UInt8] = []
            let frameLength = 64
            for _ in 0..<40 {
                // Sync word, MPEG-4, no CRC; AAC LC, 44.1 kHz, stereo; the frame's length; buffer fullness 0x7FF.
                bytes += [
                    0xFF, 0xF1, 0x50, 0x80 | UInt8(frameLength >> 11), UInt8((frameLength >> 3) & 0xFF),
                    UInt8((frameLength & 7) << 5) | 0x1F, 0xFC,
                ]
                bytes += [UInt8](repeating: 0, count: frameLength - 7)
            }
            let path = try temporaryFile(bytes, name: "song.aac")
            let error = try #require(AudioTests.trackError(path))
            #expect(error == .audio(path: path, problem: .noDecoder, reason: "no decoder for audio/mpeg"), "\(error)")
            #expect(
                error.description.contains("install the GStreamer plugins for its format (Debian: gstreamer1.0-libav"))
            #expect(!error.description.contains("\n"))
        }

        @Test func aCutFileIsDamagedOrUnknown() throws {
            let folder = try AudioTests.folder()
            let whole = try AudioTests.tone(in: folder, name: "whole.ogg", encoder: "vorbisenc ! oggmux")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
            let cut = folder.appendingPathComponent("cut.ogg").path
            try bytes.prefix(300).write(to: URL(fileURLWithPath: cut))
            // decodebin may drop the demuxer's error (a race while it sets the demuxer up, seen on a loaded machine):
            // then the stall timeout ends it, as damaged too.
            let error = try #require(AudioTests.trackError(cut, stallTimeout: 3))
            guard case .audio(cut, let problem, _) = error, problem == .damaged || problem == .unknownType else {
                Issue.record("\(error)")
                return
            }
        }
    }
}
