/// One `iChannelN` input of a Shadertoy pass: a buffer (the pass's own buffer gives its previous frame), an image
/// file, a cube map, the keyboard, a video or the webcam, music or the microphone, sampled with Shadertoy's sampler
/// settings.
package struct ShadertoyChannel: Sendable, Hashable {
    /// Where the channel's pixels come from.
    package enum Source: Sendable, Hashable {
        /// A buffer's output: this frame's for a buffer that renders earlier, else the previous frame's.
        case buffer(ShadertoyBuffer)
        /// An image file (absolute path).
        case texture(path: String)
        /// The keyboard: ``ShadertoyKeyboard``'s 256 × 3 texture.
        case keyboard
        /// A cube map from six image files (absolute paths), in GL's face order: +X, −X, +Y, −Y, +Z, −Z.
        case cubemap(faces: [String])
        /// The Cube A pass's output: this frame's for a pass that renders after it, else the previous frame's.
        case cubeBuffer
        /// A video file (absolute path), played looped.
        case video(path: String)
        /// The camera (`--camera`, `--source`), or a test pattern without one.
        case webcam
        /// A music file (absolute path) as Shadertoy's 512 × 2 sound texture (spectrum and waveform); `nil`: the file
        /// was not found, and the channel hears silence.
        case music(path: String?)
        /// The default capture device as the 512 × 2 sound texture; silence without one.
        case microphone

        /// Whether a shader samples it as a `samplerCube`.
        package var isCube: Bool {
            switch self {
            case .cubemap, .cubeBuffer: true
            default: false
            }
        }

        /// Whether its pixels change by themselves over time (a video, the camera, sound), so that a pass reading it
        /// draws every frame.
        package var isLive: Bool {
            switch self {
            case .video, .webcam, .music, .microphone: true
            default: false
            }
        }

        /// Whether it is Shadertoy's sound texture (512 × 2: spectrum, waveform).
        package var isSound: Bool {
            switch self {
            case .music, .microphone: true
            default: false
            }
        }
    }

    /// How texels are filtered.
    package typealias Filter = TextureFilter

    /// What lies outside 0…1: Shadertoy offers two of ``TextureWrap``'s three.
    package enum Wrap: String, Sendable, Hashable, CaseIterable {
        case clamp, `repeat`

        /// The same wrap in the renderer's vocabulary.
        package var textureWrap: TextureWrap { self == .repeat ? .repeat : .clamp }
    }

    /// The channel number, 0–3 (`iChannel0` … `iChannel3`).
    package var index: Int
    /// Where it reads.
    package var source: Source
    /// Filtering.
    package var filter: Filter
    /// Wrapping.
    package var wrap: Wrap
    /// Whether an image's bottom row is at v = 0 (Shadertoy's default for textures); buffers are never flipped.
    package var vflip: Bool

    /// Creates a channel; unset sampler settings take Shadertoy's defaults for the source (textures: mipmap, repeat,
    /// flipped; cube maps: mipmap, clamp, upright; buffers and Cube A: linear, clamp; videos and the webcam: linear,
    /// clamp, flipped; the keyboard: nearest, clamp, never flipped; sound: linear, clamp, never flipped).
    package init(index: Int, source: Source, filter: Filter? = nil, wrap: Wrap? = nil, vflip: Bool? = nil) {
        self.index = index
        self.source = source
        let defaults: (filter: Filter, wrap: Wrap, vflip: Bool) =
            switch source {
            case .texture: (.mipmap, .repeat, true)
            case .cubemap: (.mipmap, .clamp, false)
            case .buffer, .cubeBuffer: (.linear, .clamp, false)
            case .video, .webcam: (.linear, .clamp, true)
            case .keyboard: (.nearest, .clamp, false)
            case .music, .microphone: (.linear, .clamp, false)
            }
        // Textures updated per frame (the keyboard, sound, Cube A) have no mipmaps: a mipmap filter asked of them
        // filters linearly.
        let hasMipmaps = source.isLive == false && source != .keyboard && source != .cubeBuffer
        let asked = filter ?? defaults.filter
        self.filter = asked == .mipmap && !hasMipmaps ? .linear : asked
        self.wrap = wrap ?? defaults.wrap
        // The keyboard's and the sound's rows are never flipped (as in Shadertoy, whatever the sampler says): row 0
        // is held keys, the spectrum.
        self.vflip = source == .keyboard || source.isSound ? false : vflip ?? defaults.vflip
    }
}

extension ShadertoyChannel {
    /// Sampler settings as written (a preset's channel or an export's `sampler`), checked; `nil` keeps the default.
    struct Settings {
        var filter: Filter?
        var wrap: Wrap?
        var vflip: Bool?

        /// Checks the written names.
        /// - Throws: `SettingError` naming the value and the ones allowed.
        init(filter: String?, wrap: String?, vflip: Bool?) throws(SettingError) {
            self.filter = try filter.map { (f: String) throws(SettingError) -> Filter in
                guard let v = Filter(rawValue: f) else {
                    throw SettingError(reason: "filter '\(f)' is not one of nearest, linear, mipmap")
                }
                return v
            }
            self.wrap = try wrap.map { (w: String) throws(SettingError) -> Wrap in
                guard let v = Wrap(rawValue: w) else {
                    throw SettingError(reason: "wrap '\(w)' is not one of clamp, repeat")
                }
                return v
            }
            self.vflip = vflip
        }
    }

    /// A sampler setting that is not one Shadertoy has.
    struct SettingError: Error {
        let reason: String
    }

    /// A channel with written settings.
    init(index: Int, source: Source, settings: Settings) {
        self.init(index: index, source: source, filter: settings.filter, wrap: settings.wrap, vflip: settings.vflip)
    }
}

extension ShadertoyChannel.Source {
    /// What the channel reads, for people: `Buffer A`, `texture PATH`, `keyboard`.
    package var summary: String {
        switch self {
        case .buffer(let buffer): buffer.passName
        case .texture(let path): "texture \(path)"
        case .keyboard: "keyboard"
        case .cubemap(let faces): "cube map \(faces.first ?? "") (+5 faces)"
        case .cubeBuffer: "Cube A"
        case .video(let path): "video \(path)"
        case .webcam: "webcam"
        case .music(let path): path.map { "music \($0)" } ?? "music (silence: file not found)"
        case .microphone: "microphone"
        }
    }
}
