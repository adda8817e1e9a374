/// What the sensor must do for the clients there are: run or not, and at what rate.
struct Demand: Sendable, Equatable {
    /// Someone watches frames or raw samples, or waits for a poll.
    var active: Bool
    /// The highest rate any watcher asked for, Hz.
    var rate: Double?
    /// Someone wants the 6D (game rotation) attitude while the main filter is 9D: the second filter runs.
    var game = false

    static let idle = Demand(active: false, rate: nil)
    /// The rate a claim asks for, Hz: enough for orientation, little work.
    static let claimRate = 20.0
}
