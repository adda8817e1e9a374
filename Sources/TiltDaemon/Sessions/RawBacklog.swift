import NIOCore
import TiltWire

/// One client's queue of raw samples, and of the events that must stay in order with them or that no later line
/// replaces, while it does not read.
///
/// A `raw` watcher is promised every sample (docs/protocol.md), so while its socket does not take writes the
/// samples wait here instead of being dropped, up to ``capacity`` of them (the `raw_queue_seconds` setting times
/// the rate they arrive at). Beyond that a sample is dropped and counted, and once there is room again a `gap`
/// line takes the place of the dropped ones, with their number and the times of the first and last of them: the
/// client is told in-band, where the samples are missing. Events queued behind samples keep their order (a
/// `sensor finished` comes after the last sample); frames are not queued (the latest frame wins).
///
/// A plain value, driven by the session on its event loop and tested without a channel.
struct RawBacklog {
    /// The lines in order; samples count against ``capacity``, other lines (a gap, an event) do not.
    private var lines = CircularBuffer<(line: WireLine, isSample: Bool)>()
    private(set) var queuedSamples = 0
    /// Samples dropped since the last gap line was queued: their number and first and last times.
    private(set) var dropped: (count: Int, first: Double, last: Double)?
    /// Events waiting behind samples; past ``maxQueuedEvents`` more are dropped (a client that never reads).
    private var queuedEvents = 0

    /// Events kept in order behind queued samples, at most.
    static let maxQueuedEvents = 256

    /// Whether nothing waits: no line queued and no gap to tell.
    var isEmpty: Bool { lines.isEmpty && dropped == nil }

    /// What ``offer(sample:time:capacity:)`` did.
    enum Verdict: Equatable {
        case queued
        /// The queue was full: dropped, counted in the next gap line.
        case dropped
    }

    /// Queues a sample's line, or drops it (counting it for the next gap) when `capacity` samples wait already.
    mutating func offer(sample line: WireLine, time: Double, capacity: Int) -> Verdict {
        guard queuedSamples < capacity else {
            if let d = dropped {
                dropped = (d.count + 1, d.first, time)
            } else {
                dropped = (1, time, time)
            }
            return .dropped
        }
        queueGap()
        lines.append((line, true))
        queuedSamples += 1
        return .queued
    }

    /// Queues a line that must keep its place among the samples (an event, a log's gap).
    ///
    /// - Returns: `false` when too many events wait already and this one was dropped.
    mutating func offer(line: WireLine) -> Bool {
        guard queuedEvents < Self.maxQueuedEvents else { return false }
        queueGap()
        lines.append((line, false))
        queuedEvents += 1
        return true
    }

    /// The next line to write, the gap line once the samples before it are out; `nil` when nothing waits.
    mutating func next() -> WireLine? {
        if lines.isEmpty { queueGap() }
        guard let first = lines.popFirst() else { return nil }
        if first.isSample { queuedSamples -= 1 } else { queuedEvents -= 1 }
        return first.line
    }

    /// Puts the gap line for the samples dropped so far at the end of the queue: there is room again (a sample or
    /// another line follows them, or the queue emptied).
    private mutating func queueGap() {
        guard let d = dropped else { return }
        dropped = nil
        lines.append((WireLine(.gap(.init(count: d.count, first: d.first, last: d.last))), false))
        queuedEvents += 1
    }
}
