import TiltCore
import TiltEffects
import TiltGL

/// What a live run (`tiltfx run`, in a window or headless) shows and under which rules: the preset, the output size,
/// the daemon that drives it, the power policy and how long it lasts. Shared by ``WindowRunner`` and
/// ``HeadlessRunner``.
package struct LiveRunConfiguration: Sendable {
    /// The preset to show.
    package var preset: Preset
    /// Output (initial window) width.
    package var width: Int
    /// Output (initial window) height.
    package var height: Int
    /// The daemon's socket (nil: default).
    package var socketPath: String?
    /// Stop after this many seconds (for tests, demos and measurements); nil runs until closed or signalled.
    package var duration: Double?
    /// The power policy: full, capped or still by power state; nothing while hidden.
    package var policy: PowerPolicy
    /// The user's picture the first effect shades, if any.
    package var picture: PictureContent?
    /// What a Shadertoy webcam channel shows (`--camera`, `--source` given to a program with one); `nil`: a test
    /// pattern.
    package var webcam: VideoInput?
    /// The picture axes to ask `tiltd` for: fixed, or the display's own (`auto`), followed as it turns.
    package var screenRotation: ScreenRotationChoice
    /// Scale the window down to fit the display's usable area when it is larger (the default size was asked for,
    /// not a size of the user's: `tiltfx run` without `--size`).
    package var fitsDisplay = false
    /// The window's keys go to a Shadertoy keyboard channel, Escape too (it no longer closes the window).
    package var keysToShader = false
    /// How the motion drawn is predicted (`--predict`; issue 30).
    package var prediction: PredictionSetting = .auto

    /// Settings for a run.
    package init(
        preset: Preset, width: Int, height: Int, socketPath: String?, duration: Double? = nil,
        policy: PowerPolicy = .automatic, picture: PictureContent? = nil, screenRotation: ScreenRotationChoice = .auto
    ) {
        self.screenRotation = screenRotation
        self.picture = picture
        self.preset = preset
        self.width = width
        self.height = height
        self.socketPath = socketPath
        self.duration = duration
        self.policy = policy
    }
}
