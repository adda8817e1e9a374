import CEGL

/// The EGL set-up every GL context of tilt starts with, written once: the headless renderer's (Mesa's surfaceless
/// platform), the Wayland wallpaper's and the X11 wallpaper's differ only in the platform, the surface type and how
/// a config is picked.
///
/// Each step throws ``Failure`` with a sentence naming the step, where (`on the Wayland display`) and EGL's error
/// code; callers wrap it in their own error type.
package enum EGLSetup {
    /// What went wrong, for a person.
    package struct Failure: Error, CustomStringConvertible {
        package let message: String
        package var description: String { message }
    }

    /// EGL's last error, as its headers spell it: `0x3001`.
    package static var errorText: String { "0x" + String(eglGetError(), radix: 16) }

    /// The display of `platform` for `native` (`nil`: the platform has no native display), initialised, with the
    /// OpenGL ES API bound.
    ///
    /// - Parameters:
    ///   - extensionName: The EGL extension that provides the platform, for the message when it is missing.
    ///   - place: Where, for messages: `on the Wayland display`.
    ///   - terminateOnFailure: End the display when binding fails (a display of one's own; never the shared
    ///     surfaceless one, whose other contexts would end with it).
    package static func display(
        platform: EGLenum, native: UnsafeMutableRawPointer?, attributes: [EGLAttrib]? = nil, extensionName: String,
        place: String, terminateOnFailure: Bool = true
    ) throws(Failure) -> EGLDisplay {
        guard let display = eglGetPlatformDisplay(platform, native, attributes) else {
            throw Failure(message: "EGL has no such platform (\(extensionName)); error \(errorText)")
        }
        var major: EGLint = 0
        var minor: EGLint = 0
        // Initialising an initialised display is a no-op, so several contexts on one display are fine.
        guard eglInitialize(display, &major, &minor) == EGL_TRUE else {
            throw Failure(message: "eglInitialize \(place) failed with \(errorText)")
        }
        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGL_TRUE else {
            let text = errorText
            if terminateOnFailure { eglTerminate(display) }
            throw Failure(message: "eglBindAPI(EGL_OPENGL_ES_API) \(place) failed with \(text)")
        }
        return display
    }

    /// The configs for an OpenGL ES 3 surface of `surfaceType` with 8-bit red, green and blue, best first, at most
    /// `limit`.
    ///
    /// EGL's sizes are least sizes, and its order puts deeper colour first: asked for 8 bits, Mesa lists its 10-bit
    /// configs (XRGB2101010) before the 8-bit ones, and a compositor drawing with pixman converts such a buffer on
    /// every frame (ten times the time of an 8-bit one: issue 40). So the configs with exactly 8 bits a channel, and
    /// exactly `alphaSize` alpha bits where it is given, come first; EGL's order stands among the rest.
    ///
    /// - Parameter alphaSize: The alpha bits asked for; `nil` leaves them to EGL.
    package static func configs(
        _ display: EGLDisplay, surfaceType: EGLint, alphaSize: EGLint?, limit: Int = 1
    ) -> [EGLConfig] {
        var attributes: [EGLint] = [
            EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, surfaceType,
            EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
        ]
        if let alphaSize { attributes += [EGL_ALPHA_SIZE, alphaSize] }
        attributes.append(EGL_NONE)
        var configs = [EGLConfig?](repeating: nil, count: max(64, limit))
        var count: EGLint = 0
        guard eglChooseConfig(display, attributes, &configs, EGLint(configs.count), &count) == EGL_TRUE else {
            return []
        }
        func size(_ config: EGLConfig, _ attribute: EGLint) -> EGLint {
            var value: EGLint = 0
            eglGetConfigAttrib(display, config, attribute, &value)
            return value
        }
        func isExact(_ config: EGLConfig) -> Bool {
            [EGL_RED_SIZE, EGL_GREEN_SIZE, EGL_BLUE_SIZE].allSatisfy { size(config, $0) == 8 }
                && (alphaSize.map { size(config, EGL_ALPHA_SIZE) == $0 } ?? true)
        }
        var exact: [EGLConfig] = []
        var others: [EGLConfig] = []
        for config in configs.prefix(Int(count)).compactMap({ $0 }) {
            if isExact(config) { exact.append(config) } else { others.append(config) }
        }
        return Array((exact + others).prefix(max(1, limit)))
    }

    /// An OpenGL ES 3.0 context on `display` (`config` `nil`: none, with EGL_KHR_no_config_context).
    package static func context(
        _ display: EGLDisplay, config: EGLConfig?, place: String
    ) throws(Failure) -> EGLContext {
        let attributes: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE]
        guard let context = eglCreateContext(display, config, nil, attributes) else {
            throw Failure(message: "eglCreateContext(OpenGL ES 3.0) \(place) failed with \(errorText)")
        }
        return context
    }

    /// Makes `context` current with no surface (EGL_KHR_surfaceless_context); destroys it when that fails.
    package static func makeCurrentWithoutSurface(
        _ display: EGLDisplay, _ context: EGLContext, place: String
    ) throws(Failure) {
        guard eglMakeCurrent(display, nil, nil, context) == EGL_TRUE else {
            let text = errorText
            eglDestroyContext(display, context)
            throw Failure(
                message: "eglMakeCurrent without a surface \(place) failed with \(text) (needs "
                    + "EGL_KHR_surfaceless_context)")
        }
    }
}
