import TiltCore
import TiltEffects
import TiltGL

/// What a live run (`tiltfx run`, in a window or headless) shows and under which rules: the preset, the output size,
/// the daemon that drives it, the power policy and how long it lasts. Shared by ``WindowRunner`` and
/// ``HeadlessRunner``.
public struct LiveRunSettings: Sendable {
    /// The preset to show.
    public var preset: Preset
    /// Output (initial window) width.
    public var width: Int
    /// Output (initial window) height.
    public var height: Int
    /// The daemon's socket (nil: default).
    public var socketPath: String?
    /// Stop after this many seconds (for tests, demos and measurements); nil runs until closed or signalled.
    public var duration: Double?
    /// The power policy: full, capped or still by power state; nothing while hidden.
    public var policy: PowerPolicy
    /// The user's picture the first effect shades, if any.
    public var picture: PictureContent?
    /// What a Shadertoy webcam channel shows (`--camera`, `--source` given to a program with one); `nil`: a test
    /// pattern.
    public var webcam: VideoInput?
    /// The picture axes to ask `tiltd` for: fixed, or the display's own (`auto`), followed as it turns.
    public var screenRotation: ScreenRotationChoice
    /// Scale the window down to fit the display's usable area when it is larger (the default size was asked for,
    /// not a size of the user's: `tiltfx run` without `--size`).
    public var fitsDisplay = false
    /// The window's keys go to a Shadertoy keyboard channel, Escape too (it no longer closes the window).
    public var keysToShader = false
    /// How the motion drawn is predicted (`--predict`; issue 30).
    public var prediction: PredictionSetting = .auto

    /// Settings for a run.
    public init(
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
