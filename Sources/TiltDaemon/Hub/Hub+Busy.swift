import Synchronization
import TiltCore
import TiltWire

extension Hub {
    /// Records that the sensor's buffer is held by another program (or, with `nil`, that it is read again), and
    /// tells every client with a `sensor` event whose reason says so when that news is new: the buffer became busy
    /// or free, or someone else holds it now (a later retry that finds it still busy only updates `status`).
    ///
    /// - Parameter announce: Whether to send the event; not when the source stops and the note is merely cleared.
    /// - Returns: Whether the news was new.
    @discardableResult
    func setBusy(_ busy: SensorBusy?, announce: Bool = true) -> Bool {
        let news = state.withLock { s -> SensorState? in
            let old = s.busy
            s.busy = busy
            guard (old == nil) != (busy == nil) || old?.holder != busy?.holder else { return nil }
            return s.sensorState
        }
        guard let news, announce else { return false }
        let reason = busy?.explanation() ?? "the IIO buffer is free again; reading the buffer"
        broadcast(.sensor(.init(state: news, reason: reason)))
        return true
    }

    /// The sensors as `hello` lists them now: `polled`, at the polled rate, for the one whose buffer is busy.
    func currentSensors(busy: SensorBusy?) -> [SensorDescription] {
        guard let busy else { return sensors }
        return sensors.map { sensor in
            var s = sensor
            if s.location == busy.device {
                s.mode = "polled"
                s.rateHz = busy.rateHz
            }
            return s
        }
    }
}
