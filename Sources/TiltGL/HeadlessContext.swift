import CEGL
import TiltEGL

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
        let place = "on the surfaceless platform"
        do throws(EGLSetup.Failure) {
            let display = try EGLSetup.display(
                platform: EGLenum(EGL_PLATFORM_SURFACELESS_MESA), native: nil,
                extensionName: "EGL_MESA_platform_surfaceless", place: place, terminateOnFailure: false)
            // EGL_KHR_no_config_context: surfaceless contexts need no config where there is none.
            let config = EGLSetup.configs(display, surfaceType: EGL_PBUFFER_BIT, alphaSize: 8).first
            let context = try EGLSetup.context(display, config: config, place: place)
            try EGLSetup.makeCurrentWithoutSurface(display, context, place: place)
            self.display = display
            self.context = context
        } catch {
            throw .noGL(error.message)
        }
    }
    /// The GL renderer string (e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`).
    package var rendererName: String { GLInfo.renderer }

    deinit {
        eglMakeCurrent(display, nil, nil, nil)
        eglDestroyContext(display, context)
    }
}
