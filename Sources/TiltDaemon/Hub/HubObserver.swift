import TiltCore
import TiltWire

/// A service that follows the hub beside the socket's clients: the D-Bus sensor proxy, the DSU server, whatever
/// serves the motion next. It joins with ``Hub/attach(_:)``; its callers hold the sensor through its own
/// ``Demand/Holder`` (``Hub/setHolders(_:count:)``), so the hub needs no case for any of them.
///
/// Each call comes from the task or thread that changed the hub (the motion service for samples): an observer takes
/// what it needs and returns, never blocking. What an observer leaves out does nothing.
protocol HubObserver: AnyObject, Sendable {
    /// A fused sample, calibrated, and the filter's bias-corrected rotation rate, rad/s (the DSU server streams them).
    func fused(_ sample: MotionSample, rotationRate: Vector3)

    /// The device's orientation or tilt changed (the sensor proxy's properties follow it).
    func orientationChanged(_ orientation: WireOrientation)

    /// Adds this service's part to a `status` report (the DSU server's counters).
    func addStatus(to report: inout StatusReport)
}

extension HubObserver {
    func fused(_ sample: MotionSample, rotationRate: Vector3) {}
    func orientationChanged(_ orientation: WireOrientation) {}
    func addStatus(to report: inout StatusReport) {}
}
