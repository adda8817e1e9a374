import CEGL

/// An OpenGL ES 3.0 context through EGL with no display at all (Mesa's surfaceless platform): rendering goes to
/// framebuffer objects only.
///
/// EGL hands out one display per platform and process, and `eglTerminate` would end every context on it, so the
/// display is initialised once and never terminated; each `HeadlessContext` only creates and destroys its context.
package final class HeadlessContext {
    private let display: EGLDisplay
    private let context: EGLContext

    /// Creates the context and makes it current on this thread.
    /// - Throws: `RenderError.noGL` when EGL has no surfaceless platform or no ES 3 context.
    package init() throws(RenderError) {
        guard let display = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil) else {
            throw .noGL(
                "EGL has no surfaceless platform (EGL_MESA_platform_surfaceless); "
                    + "error 0x\(String(eglGetError(), radix: 16))"
            )
        }
        var major: EGLint = 0
        var minor: EGLint = 0
        // Initialising an initialised display is a no-op, so concurrent contexts in one process are fine.
        guard eglInitialize(display, &major, &minor) == EGL_TRUE else {
            throw .noGL("eglInitialize failed with 0x\(String(eglGetError(), radix: 16))")
        }
        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGL_TRUE else {
            throw .noGL("eglBindAPI(EGL_OPENGL_ES_API) failed")
        }
        let configAttributes: [EGLint] = [
            EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
            EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE,
        ]
        var config: EGLConfig?
        var count: EGLint = 0
        if eglChooseConfig(display, configAttributes, &config, 1, &count) != EGL_TRUE || count == 0 {
            config = nil  // EGL_KHR_no_config_context: surfaceless contexts need no config
        }
        let contextAttributes: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE]
        guard let context = eglCreateContext(display, config, nil, contextAttributes) else {
            let e = eglGetError()
            throw .noGL("eglCreateContext(ES 3.0) failed with 0x\(String(e, radix: 16))")
        }
        guard eglMakeCurrent(display, nil, nil, context) == EGL_TRUE else {
            eglDestroyContext(display, context)
            throw .noGL("eglMakeCurrent without a surface failed (needs EGL_KHR_surfaceless_context)")
        }
        self.display = display
        self.context = context
    }

    /// The GL renderer string (e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`).
    package var rendererName: String { GLInfo.renderer }

    deinit {
        eglMakeCurrent(display, nil, nil, nil)
        eglDestroyContext(display, context)
    }
}
