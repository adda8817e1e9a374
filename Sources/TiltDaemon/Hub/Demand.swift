import TiltCore

/// What the sensor must do for the clients there are: run or not, and at what rate.
struct Demand: Sendable, Equatable {
    /// Someone watches frames or raw samples, or waits for a poll.
    var active: Bool
    /// The highest rate any watcher asked for, Hz.
    var rate: Double?
    /// A watcher or a pending poll wants the 9D (`magnetic`) attitude: the 9D filter runs.
    var magnetic = false
    /// A watcher or a pending poll wants the 6D (`game`) attitude. The 6D filter also runs when the sensor runs for
    /// what needs no heading (only claims: orientation needs gravity only), and alone on a daemon without a
    /// magnetometer.
    var game = false
    /// The prediction horizons watchers asked for, whole milliseconds (issue 30): the filters keep a tilt smoothing
    /// for each.
    var horizons: Set<Int> = []

    /// The attitudes clients want.
    var attitudes: Set<AttitudeReference> {
        Set([magnetic ? .magnetic : nil, game ? .game : nil].compactMap { $0 })
    }

    static let idle = Demand(active: false, rate: nil)

    /// A service whose callers hold the sensor from outside the socket (``Hub/setHolders(_:count:)``): each such
    /// service declares its own, so the hub knows none of them by name.
    struct Holder: Sendable, Hashable {
        /// Who holds, for people: `net.hadess.SensorProxy claims`.
        let name: String
        /// The rate one of its callers asks for, Hz.
        let leastRate: Double
    }
}
