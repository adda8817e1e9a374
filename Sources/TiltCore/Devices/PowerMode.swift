/// How hard the renderer works: the power mode `tiltfx` chooses from the power state and the window's visibility.
///
/// It lives in TiltCore with the rest of the shared vocabulary (``PowerState``, ``SensorState``): the effect model's
/// policy chooses it, the render loop obeys it, and `tiltfx run --stats` reports it by its raw value.
public enum PowerMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// Draw at the display's rate (or the run's frame rate) and watch motion at the full rate.
    case full
    /// Draw at most the policy's capped frame rate (30), and watch motion at its capped rate (15 Hz).
    case capped
    /// Draw one frame at the current pose, keep showing it, and stop watching motion until the power or window state
    /// changes.
    case still
    /// Nothing is seen (the window is hidden or minimised): draw nothing, watch no motion.
    case hidden
}

/// Whether the output can be seen.
public enum WindowVisibility: Sendable, Hashable {
    /// Shown on screen (or headless: always counted as visible).
    case visible
    /// Hidden or minimised.
    case hidden
}
