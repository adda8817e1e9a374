import TiltCore

/// Keeps a source's sample times strictly increasing across a switch between clocks (polled reads stamped with
/// `CLOCK_MONOTONIC` when read, buffered scans with the driver's timestamps): a sample not after the last one is
/// refused with a reason rather than delivered out of order.
package struct SampleOrder {
    package init() {}
    package private(set) var lastTime = -Double.infinity

    /// `nil` when `sample` may go out (and is now the latest), else why it may not.
    package mutating func admit(_ sample: MotionSample) -> String? {
        guard sample.time > lastTime else {
            return "sample time \(sample.time) s is not after the previous \(lastTime) s; dropped to keep time moving "
                + "forward"
        }
        lastTime = sample.time
        return nil
    }
}
