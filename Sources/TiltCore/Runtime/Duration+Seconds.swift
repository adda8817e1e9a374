extension Duration {
    /// The duration in seconds, as tilt counts time (`Double` seconds: render loops, timings, retry delays).
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
