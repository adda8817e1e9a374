import CEGL
import FoundationEssentials
import Logging
import TiltCore
import TiltDesktop
import TiltEffects
import TiltGL

/// `tiltfx wallpaper`'s frames: every output of a desktop (``DesktopSurfaces``: Wayland layer-shell surfaces or X11
/// desktop windows), each with its own scene, drawn in one GL context by the one ``FrameLoop``.
///
/// The loop decides when a frame is due (power, rate, render-on-change); this sink draws it on every output that can
/// be seen and is ready for it (Wayland: its last frame callback came). An output that was not ready, or that
/// resumes after a pause, gets the frame as soon as it is (``SinkEvents/redraw``). When no output can be seen (all
/// paused under ``WallpaperPause``, or none there) the sink says `.hidden`, so the loop draws nothing and stops
/// watching motion: tiltd's sensor can sleep.
///
/// Each output shows a ``LivePreset`` (its files reloaded when they change). The ``effects`` the loop asks about
/// (whether the effect is animated, where the moving picture goes) are those of the default scene, compiled once
/// with no output; a moving picture's new frames are copied from it to every output showing the default scene.
package final class WallpaperSink: FrameSink {
    /// What an output shows: a preset and, optionally, a picture.
    package struct Scene {
        /// The preset.
        package var preset: Preset
        /// The picture its first effect shades.
        package var picture: PictureContent?
        /// Whether this is the default scene (its moving picture comes from the run's picture feed).
        package var isDefault: Bool
        /// How many of the output's pixels are drawn.
        package var scale: RenderScale
        /// The output's own power policy; the run follows the most demanding of all outputs', each output holding
        /// back to its own.
        package var policy: PowerPolicy

        /// A scene.
        package init(
            preset: Preset, picture: PictureContent?, isDefault: Bool, scale: RenderScale = .full,
            policy: PowerPolicy = .automatic
        ) {
            self.preset = preset
            self.picture = picture
            self.isDefault = isDefault
            self.scale = scale
            self.policy = policy
        }
    }

    /// What one output shows: its scene's preset, live, and its power policy.
    private struct Shown {
        var live: LivePreset
        var isDefault: Bool
        /// The output's power policy.
        var policy: PowerPolicy
    }

    /// How one output's frames go, changed as they are drawn (apart from ``Shown``, whose changes are summarised).
    private struct Pacing {
        /// The fraction of its pixels drawn now.
        var scale: Double
        /// `auto`'s controller.
        var auto: AutoScale?
        let drawing = ScaledDrawing()
        /// When its last frame was drawn (monotonic seconds), for its own capped rate.
        var lastDrawn: Double?
        /// Whether its still frame is drawn, while its own policy says still.
        var stillDrawn = false
    }

    /// The power state now (the daemon's), for each output's own policy.
    package var powerState: () -> PowerState? = { nil }

    private let desktop: any DesktopSurfaces
    private let pause: WallpaperPause
    private let scene: (String) throws -> Scene
    private let logger: Logger
    private var template: LivePreset { didSet { summarise() } }
    private var shown: [String: Shown] = [:] { didSet { summarise() } }
    /// Each shown output's pacing, by name: no summary to keep, so the frame path changes it freely.
    private var pacing: [String: Pacing] = [:]
    /// The frame rate cap of the run (`--fps`), for `auto`'s budget; `nil`: each output's refresh rate.
    package var frameRateCap: Double?
    private var pending: Set<String> = []
    private var paused: Set<String> = []
    private var stashed = DesktopEvents()
    private var pictureFrames = -1
    private let followsRotation: Bool
    private var rotation: ScreenRotation?
    /// The moving picture of the default scene, whose new frames are copied to every output showing it.
    package var pictureFeed: PictureFeed?
    /// Where the tag of a drawn frame comes from: the `mono` time of the motion it shows (tiltd's), else now.
    package var motionTime: () -> Double? = { nil }
    /// Seconds from each drawn frame's tag to the compositor showing it (`wp_presentation`).
    package private(set) var latencies = LatencyRecord()
    /// Frames drawn on outputs (one per output per frame).
    package private(set) var outputFrames = 0
    /// When each of the latest frames finished drawing, by tag, for the presentation feedback to measure against.
    private var committed: [(tag: Double, at: Double)] = []
    /// Seconds from the end of drawing to the compositor showing the frame, smoothed, as `wp_presentation` measures
    /// it; a refresh period at 60 Hz until it does.
    package private(set) var presentationDelay = 1.0 / 60
    /// Why the run had to end (the display server went away, a scene failed to compile on a new output).
    package private(set) var failure: (any Error)?

    /// Draws on `desktop`.
    /// - Parameters:
    ///   - defaultScene: what an output shows unless `scene` says otherwise; compiled now, with no output.
    ///   - scene: the scene of an output, by name (the config file's sections over the default).
    ///   - pause: when a covered output stops drawing.
    ///   - followsRotation: report the first output's rotation as the screen's (`--screen-rotation auto`).
    /// - Throws: compile errors of the default scene, ``DesktopError`` when the context cannot be made current.
    package init(
        desktop: any DesktopSurfaces, defaultScene: Scene, scene: @escaping (String) throws -> Scene,
        pause: WallpaperPause, followsRotation: Bool, logger: Logger
    ) throws {
        self.desktop = desktop
        self.scene = scene
        self.pause = pause
        self.followsRotation = followsRotation
        self.logger = logger
        try desktop.makeCurrent()
        template = try LivePreset(defaultScene.preset, picture: defaultScene.picture)
        summarise()
    }

    package var effects: EffectRenderer { template.effects }

    /// The first output's size (the loop's reference size; each output is drawn at its own).
    package var size: SIMD2<Int> {
        guard let first = desktop.outputs.first else { return SIMD2(1, 1) }
        return SIMD2(max(1, first.width), max(1, first.height))
    }

    package var visibility: WindowVisibility {
        let outputs = desktop.outputs
        return outputs.contains { !pause.pauses($0, among: outputs) && shown[$0.name] != nil } ? .visible : .hidden
    }

    /// Whether any output's effect reads the time (kept as outputs come, go and reload, not asked each frame).
    package private(set) var isAnimated = false

    /// What any output's effect reads (kept as ``isAnimated`` is).
    package private(set) var motionSources: Set<BuiltinUniform.Source> = []

    /// The template's renderer and every output's.
    package var channelRenderers: [EffectRenderer] { [template.effects] + shown.values.map(\.live.effects) }

    /// ``isAnimated`` and ``motionSources`` of the renderers there are now.
    private func summarise() {
        let renderers = channelRenderers
        isAnimated = renderers.contains { $0.isAnimated }
        motionSources = renderers.reduce(into: []) { $0.formUnion($1.motionSources) }
    }

    /// 250 ms at most without looking at the power state while nothing is drawn.
    package var idleWait: Double { 0.25 }
    package var hasEvents: Bool { true }

    /// The rotation of the first output, where the display server says it.
    package var initialRotation: ScreenRotation { desktop.outputs.first?.rotation ?? .normal }

    package func poll(waitSeconds: Double) -> SinkEvents {
        var result = SinkEvents()
        var events = stashed
        stashed = DesktopEvents()
        do {
            events.merge(try desktop.dispatch(waitSeconds: events.isEmpty ? waitSeconds : 0))
        } catch {
            failure = error
            result.quit = true
            return result
        }
        do {
            try follow(events, into: &result)
        } catch {
            failure = error
            result.quit = true
            return result
        }
        reload(into: &result)
        if followsRotation, let first = desktop.outputs.first, first.rotation != rotation {
            if rotation != nil {
                result.screenRotation = first.rotation
                logger.info("screen rotation: \(first.rotation.degrees)° (\(first.name))")
            }
            rotation = first.rotation
        }
        return result
    }

    /// Outputs added, removed, resized, paused or resumed, ready again, frames shown.
    private func follow(_ events: DesktopEvents, into result: inout SinkEvents) throws {
        if events.shellLeft {
            logger.info("the desktop shell closed the control channel: stopping")
            result.quit = true
        }
        for name in events.removed {
            shown[name] = nil
            pacing[name] = nil
            pending.remove(name)
            paused.remove(name)
            logger.info("output \(name) is gone")
        }
        for name in events.added where shown[name] == nil {
            try desktop.makeCurrent()
            let chosen = try scene(name)
            let live = try LivePreset(chosen.preset, picture: chosen.picture)
            if chosen.isDefault { try pictureFeed?.reshow(live.effects) }
            let output = desktop.outputs.first { $0.name == name }
            let scale = chosen.scale.initial(for: chosen.preset)
            var auto: AutoScale?
            if chosen.scale == .auto {
                let rate = frameRateCap ?? output?.refreshRate ?? 60
                auto = AutoScale(floor: chosen.preset.minScale, framePeriod: 1 / max(rate, 1), start: scale)
            }
            shown[name] = Shown(live: live, isDefault: chosen.isDefault, policy: chosen.policy)
            pacing[name] = Pacing(scale: scale, auto: auto)
            pending.insert(name)
            let size = output.map { "\($0.width)x\($0.height)" } ?? "?"
            let drawn = chosen.scale == .full ? "" : ", drawn at scale \(chosen.scale.text)"
            let raised =
                if case .fixed(let asked) = chosen.scale, asked < scale {
                    " (\(chosen.preset.name) allows no less than \(scale))"
                } else { "" }
            logger.info("output \(name) (\(size)): \(chosen.preset.name)\(drawn)\(raised)")
        }
        pending.formUnion(events.resized.filter { shown[$0] != nil })
        // Any change is looked at on every output: under any-fullscreen, one output's window pauses the others.
        let outputs = desktop.outputs
        for output in outputs where !events.visibilityChanged.isEmpty {
            let nowPaused = pause.pauses(output, among: outputs)
            guard nowPaused != paused.contains(output.name) else { continue }
            if nowPaused {
                paused.insert(output.name)
                let why =
                    pause.pauses(output.visibility)
                    ? Self.describe(output.visibility)
                    : "an active window on another output is fullscreen (any-fullscreen)"
                logger.info("output \(output.name) paused: \(why)")
            } else {
                paused.remove(output.name)
                pending.insert(output.name)
                logger.info("output \(output.name) resumed")
            }
        }
        for shownFrame in events.presented {
            latencies.add(shownFrame.shown - shownFrame.tag)
            if let done = committed.last(where: { $0.tag == shownFrame.tag })?.at, shownFrame.shown >= done {
                presentationDelay += (min(shownFrame.shown - done, 0.1) - presentationDelay) * 0.1
            }
        }
        // An output that missed a frame (not ready, just added, resized or resumed) is drawn once it can be,
        // even when the inputs did not change since the frame the others show.
        let drawable = desktop.outputs.filter { pending.contains($0.name) && $0.ready && !paused.contains($0.name) }
        if !drawable.isEmpty { result.redraw = true }
        if !events.added.isEmpty || !events.removed.isEmpty || !events.visibilityChanged.isEmpty {
            result.invalidated = true
        }
    }

    /// Reloads the presets whose files changed; a failed reload keeps the last good shader on that output.
    private func reload(into result: inout SinkEvents) {
        var reloaded: Bool?
        if let changed = template.reloadIfChanged(logger: logger) { reloaded = changed }
        for (name, entry) in shown {
            var live = entry.live
            guard let changed = live.reloadIfChanged(logger: logger) else { continue }
            shown[name]?.live = live
            if changed {
                if entry.isDefault { try? pictureFeed?.reshow(live.effects) }
                pending.insert(name)
                result.redraw = true
            }
            reloaded = reloaded ?? changed
        }
        result.reloaded = reloaded
    }

    package func present(_ inputs: FrameInputs, frame: Int) throws {
        try waitForReadyOutput()
        let tag = motionTime() ?? monotonicSeconds()
        let newPicture = pictureFeed.map { $0.framesShown != pictureFrames } ?? false
        pictureFrames = pictureFeed?.framesShown ?? -1
        let power = powerState()
        let now = monotonicSeconds()
        for output in desktop.outputs {
            guard let entry = shown[output.name], var frames = pacing[output.name], !paused.contains(output.name)
            else { continue }
            guard output.ready else {
                pending.insert(output.name)
                continue
            }
            let held = holdsBack(
                &frames, policy: entry.policy, power: power, now: now, mustDraw: pending.contains(output.name))
            if !held { frames.lastDrawn = now }
            pacing[output.name] = frames
            guard !held else { continue }
            if newPicture && entry.isDefault { try pictureFeed?.reshow(entry.live.effects) }
            var own = inputs
            func render(_ framebuffer: GLuint, _ width: Int, _ height: Int) throws {
                own.size = SIMD2(Double(width), Double(height))
                own.pointer = own.size / 2
                try entry.live.effects.render(own, framebuffer: framebuffer, width: width, height: height)
            }
            var took: Double?
            let timed = frames.auto != nil
            // Below full size, the compositor stretches a smaller buffer where it can (drawn whole, as at scale 1);
            // else one blit does.
            let stretched =
                try frames.scale < 1
                && desktop.drawScaled(output: output.name, tag: tag, scale: frames.scale) { width, height in
                    took = try frames.drawing.draw(width: width, height: height, scale: 1, timed: timed, render)
                }
            if !stretched {
                try desktop.draw(output: output.name, tag: tag) { width, height in
                    took = try frames.drawing.draw(
                        width: width, height: height, scale: frames.scale, timed: timed, render)
                }
            }
            if let took { adjustScale(of: output.name, drawnIn: took) }
            pending.remove(output.name)
            outputFrames += 1
        }
        committed.append((tag, monotonicSeconds()))
        if committed.count > 32 { committed.removeFirst(committed.count - 32) }
    }

    /// Whether an output's own power policy holds its frame back now: a still output that shows its still frame, a
    /// capped one drawn less than its period ago. One that `mustDraw` (added, resized, resumed) never is.
    private func holdsBack(
        _ entry: inout Pacing, policy: PowerPolicy, power: PowerState?, now: Double, mustDraw: Bool
    ) -> Bool {
        let decision = policy.decide(power: power)
        switch decision.mode {
        case .full, .hidden:
            entry.stillDrawn = false
            return false
        case .still:
            defer { entry.stillDrawn = true }
            return entry.stillDrawn && !mustDraw
        case .capped:
            entry.stillDrawn = false
            if mustDraw { return false }
            guard let rate = decision.frameRate, rate > 0, let last = entry.lastDrawn else { return false }
            // A little early is on time: the loop's own frames come at its rate, give or take its wake-up.
            return now - last < 0.9 / rate
        }
    }

    /// `auto`: tells the output's controller how long its frame took, and draws the next ones at the scale it picks.
    private func adjustScale(of name: String, drawnIn seconds: Double) {
        guard var auto = pacing[name]?.auto else { return }
        let cost = auto.estimatedFullSizeCost ?? seconds / (auto.scale * auto.scale)
        let changed = auto.add(seconds: seconds)
        pacing[name]?.auto = auto
        guard let changed else { return }
        pacing[name]?.scale = changed
        let ms = { (value: Double) in String(printf: "%.1f", value * 1000) }
        let line =
            "output \(name): render scale \(changed) (a frame at full size takes \(ms(cost)) ms; budget "
            + "\(ms(auto.budget)) ms)"
        logger.info("\(line)")
    }

    /// Waits (up to 100 ms) for an output that can be seen to be ready for a frame, keeping the events for the next
    /// ``poll(waitSeconds:)``: where the compositor paces frames, this is what a window's swap does.
    private func waitForReadyOutput() throws {
        let deadline = monotonicSeconds() + 0.1
        func anyReady() -> Bool {
            desktop.outputs.contains { $0.ready && shown[$0.name] != nil && !paused.contains($0.name) }
        }
        while !anyReady() {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { return }
            stashed.merge(try desktop.dispatch(waitSeconds: left))
        }
    }

    private static func describe(_ visibility: DesktopOutput.Visibility) -> String {
        switch visibility {
        case .visible: "visible"
        case .fullscreen: "its active window is fullscreen"
        case .covered: "a window covers it"
        case .notDrawn: "the compositor stopped asking for frames"
        case .hidden: "the desktop shell says nobody sees it (locked, blank or hidden)"
        }
    }
}

extension DesktopEvents {
    /// Adds `other`'s events to these (later ones after).
    mutating func merge(_ other: DesktopEvents) {
        added.removeAll { name in other.removed.contains(name) }
        removed += other.removed
        added += other.added.filter { !added.contains($0) }
        resized += other.resized
        visibilityChanged += other.visibilityChanged
        ready += other.ready
        presented += other.presented
        shellLeft = shellLeft || other.shellLeft
    }
}
