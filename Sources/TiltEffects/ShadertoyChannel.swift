/// One `iChannelN` input of a Shadertoy pass: a buffer (the pass's own buffer gives its previous frame), an image
/// file or the keyboard, sampled with Shadertoy's sampler settings.
public struct ShadertoyChannel: Sendable, Hashable {
    /// Where the channel's pixels come from.
    public enum Source: Sendable, Hashable {
        /// A buffer's output: this frame's for a buffer that renders earlier, else the previous frame's.
        case buffer(ShadertoyBuffer)
        /// An image file (absolute path).
        case texture(path: String)
        /// The keyboard: ``ShadertoyKeyboard``'s 256 × 3 texture.
        case keyboard
    }

    /// How texels are filtered.
    public typealias Filter = TextureFilter

    /// What lies outside 0…1: Shadertoy offers two of ``TextureWrap``'s three.
    public enum Wrap: String, Sendable, Hashable, CaseIterable {
        case clamp, `repeat`

        /// The same wrap in the renderer's vocabulary.
        public var textureWrap: TextureWrap { self == .repeat ? .repeat : .clamp }
    }

    /// The channel number, 0–3 (`iChannel0` … `iChannel3`).
    public var index: Int
    /// Where it reads.
    public var source: Source
    /// Filtering.
    public var filter: Filter
    /// Wrapping.
    public var wrap: Wrap
    /// Whether an image's bottom row is at v = 0 (Shadertoy's default for textures); buffers are never flipped.
    public var vflip: Bool

    /// Creates a channel; unset sampler settings take Shadertoy's defaults for the source (textures: mipmap, repeat,
    /// flipped; buffers: linear, clamp; the keyboard: nearest, clamp, never flipped).
    public init(index: Int, source: Source, filter: Filter? = nil, wrap: Wrap? = nil, vflip: Bool? = nil) {
        self.index = index
        self.source = source
        let isTexture = if case .texture = source { true } else { false }
        let isKeyboard = source == .keyboard
        // The keyboard's texture has no mipmaps: a mipmap filter asked of it filters linearly.
        self.filter =
            isKeyboard ? (filter == .mipmap ? .linear : filter ?? .nearest) : filter ?? (isTexture ? .mipmap : .linear)
        self.wrap = wrap ?? (isTexture ? .repeat : .clamp)
        // The keyboard's rows are never flipped (as in Shadertoy, whatever its sampler says): row 0 is held.
        self.vflip = isKeyboard ? false : vflip ?? isTexture
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
    public var summary: String {
        switch self {
        case .buffer(let buffer): buffer.passName
        case .texture(let path): "texture \(path)"
        case .keyboard: "keyboard"
        }
    }
}
