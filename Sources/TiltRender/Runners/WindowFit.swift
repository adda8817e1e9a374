/// The size of a window that fits a display: `tiltfx run`'s default 720×960 is taller than a 1280×800 laptop
/// screen, whose usable area (less its panels) is smaller still.
package enum WindowFit {
    /// The share of the usable area a window may take, leaving room for its title bar and borders.
    package static let share = 0.9

    /// `width`×`height` scaled down, keeping its aspect ratio, to fit within ``share`` of `area` (the display's
    /// usable width and height); as it is when it fits, or when the area is unknown (0).
    package static func fitted(width: Int, height: Int, within area: (width: Int, height: Int)) -> (
        width: Int, height: Int
    ) {
        guard area.width > 0, area.height > 0, width > 0, height > 0 else { return (width, height) }
        let room = (Double(area.width) * share, Double(area.height) * share)
        let scale = min(1, room.0 / Double(width), room.1 / Double(height))
        guard scale < 1 else { return (width, height) }
        return (
            max(1, Int((Double(width) * scale).rounded(.down))), max(1, Int((Double(height) * scale).rounded(.down)))
        )
    }
}
