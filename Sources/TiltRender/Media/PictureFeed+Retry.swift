import FoundationEssentials
import Logging
import TiltCore
import TiltGL
import TiltMedia

extension PictureFeed {
    /// A live source stopped with `error`: thrown without a ``retry``; with one, said once, the source closed and
    /// its first try to open again set (the frame on show stays).
    func stopped(_ error: MediaError) throws(MediaError) {
        guard let retry else { throw error }
        source.close()
        let now = clock.now
        outage = Outage(
            since: now, nextTry: now + .seconds(retry.firstDelay), delay: min(retry.firstDelay * 2, retry.longestDelay))
        let line =
            "\(source.input) stopped: \(Self.reason(error)); showing its last picture and trying to open it again "
            + "every \(Self.seconds(retry.firstDelay)) to \(Self.seconds(retry.longestDelay)) s"
        logger?.warning("\(line)")
    }

    /// While stopped: opens the source again when its try is due, and shows its first frame once it comes.
    /// - Returns: whether a frame was shown (the source is back).
    func recover(_ effects: EffectRenderer) throws -> Bool {
        guard let outage else { return false }
        let now = clock.now
        guard let opened = outage.opened else {
            guard now >= outage.nextTry else { return false }
            self.outage?.tries += 1
            do {
                // Not waiting: the loop goes on with the last frame while a camera takes its second to start.
                try source.open(waitingForFirstFrame: false)
                self.outage?.opened = now
            } catch {
                failed(error, now: now)
            }
            return false
        }
        let frame: VideoFrame?
        do {
            frame = try source.latestFrame()
        } catch {
            failed(error, now: now)
            return false
        }
        guard let frame else {
            let timeout = source.configuration.firstFrameTimeout
            if opened.duration(to: now).inSeconds > timeout {
                failed(.stream(input: source.input, reason: "no picture came in \(Self.seconds(timeout)) s"), now: now)
            }
            return false
        }
        self.outage = nil
        let away = outage.since.duration(to: now).inSeconds
        let tries = "\(outage.tries) \(outage.tries == 1 ? "try" : "tries")"
        logger?.notice("\(source.input) is back after \(Self.seconds(away)) s (\(tries))")
        try show(frame, effects)
        return true
    }

    /// A try that failed with `error`: the source closed, the next try set a longer wait away.
    private func failed(_ error: MediaError, now: ContinuousClock.Instant) {
        source.close()
        guard var outage, let retry else { return }
        outage.opened = nil
        outage.nextTry = now + .seconds(outage.delay)
        logger?.debug(
            "\(source.input) is not back (\(Self.reason(error))); trying again in \(Self.seconds(outage.delay)) s")
        outage.delay = min(outage.delay * 2, retry.longestDelay)
        self.outage = outage
    }

    /// What GStreamer said of a stop: a stream's reason, or the whole message of another error.
    static func reason(_ error: MediaError) -> String {
        if case .stream(_, let reason) = error { return reason }
        return "\(error)"
    }

    /// Seconds for a message: whole when whole, else to a tenth.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(printf: "%.1f", value)
    }
}
