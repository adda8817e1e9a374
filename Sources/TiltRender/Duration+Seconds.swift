extension Duration {
    /// The duration in seconds, as the render loops count time.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
