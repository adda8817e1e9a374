/// The newest samples of a stream, in a ring of fixed storage: what ``AudioCapture`` keeps between reads. Appending
/// overwrites the oldest; the storage grows only when more is asked for than it holds.
struct SampleRing {
    /// The ring's storage; sample `filled - 1` (the newest) is just before `next`.
    private var storage: [Float]
    /// Where the next sample goes.
    private var next = 0
    /// Samples held (at most the capacity).
    private(set) var filled = 0

    /// Samples held at most.
    var capacity: Int { storage.count }

    /// An empty ring of `capacity` samples (at least 1).
    init(capacity: Int) {
        storage = [Float](repeating: 0, count: max(1, capacity))
    }

    /// Appends `samples`, dropping the oldest beyond the capacity.
    mutating func append(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        let size = storage.count
        // Of more than the ring holds, only the newest matter.
        let kept = min(samples.count, size)
        var source = base + (samples.count - kept)
        var remaining = kept
        storage.withUnsafeMutableBufferPointer { ring in
            while remaining > 0 {
                let take = min(remaining, size - next)
                (ring.baseAddress! + next).update(from: source, count: take)
                source += take
                remaining -= take
                next = (next + take) % size
            }
        }
        filled = min(size, filled + kept)
    }

    /// Makes room for `capacity` samples, keeping those held.
    mutating func reserve(_ capacity: Int) {
        guard capacity > storage.count else { return }
        let held = newest(filled)
        storage = [Float](repeating: 0, count: capacity)
        next = 0
        filled = 0
        held.withUnsafeBufferPointer { append($0) }
    }

    /// The newest `count` samples, oldest first, zero-padded at the front past what is held.
    func newest(_ count: Int) -> [Float] {
        var out = [Float](repeating: 0, count: max(0, count))
        let wanted = min(count, filled)
        guard wanted > 0 else { return out }
        let size = storage.count
        storage.withUnsafeBufferPointer { ring in
            out.withUnsafeMutableBufferPointer { out in
                // Copied backwards from the newest, in at most two runs.
                var destination = count
                var source = next
                var remaining = wanted
                while remaining > 0 {
                    if source == 0 { source = size }
                    let take = min(remaining, source)
                    (out.baseAddress! + destination - take).update(from: ring.baseAddress! + source - take, count: take)
                    destination -= take
                    source -= take
                    remaining -= take
                }
            }
        }
        return out
    }

    /// Forgets every sample.
    mutating func removeAll() {
        next = 0
        filled = 0
    }
}
