import CEGL
import TiltEffects

extension TextureFilter {
    /// The GL's minification and magnification filters for this filter.
    var glFilters: (min: Int32, mag: Int32) {
        switch self {
        case .nearest: (GL_NEAREST, GL_NEAREST)
        case .linear: (GL_LINEAR, GL_LINEAR)
        case .mipmap: (GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR)
        }
    }
}

extension TextureWrap {
    /// The GL's wrap mode for this wrap.
    var glWrap: Int32 {
        switch self {
        case .clamp: GL_CLAMP_TO_EDGE
        case .repeat: GL_REPEAT
        case .mirror: GL_MIRRORED_REPEAT
        }
    }
}
