#if canImport(Glibc)
    import Glibc
#endif

/// What the GL driver is asked for, before any context is made, so that shaders written for WebGL (Shadertoy's)
/// behave here as they do in a browser.
package enum ShaderCompatibility {
    /// Asks Mesa to give every variable a shader leaves uninitialised the value zero (its `glsl_zero_init` option),
    /// as browsers do for WebGL: a Shadertoy loop written `for (int i; i < n; i++)` runs from 0 there, and without
    /// it llvmpipe may start from anything and not end. Mesa says on standard error that an option was overridden
    /// unless `MESA_DEBUG` holds `silent`, which is set too. Both only where the user has not set them; other
    /// drivers ignore them. Call it once, at the start of the process.
    package static func prepareEnvironment() {
        setenv("glsl_zero_init", "true", 0)
        setenv("MESA_DEBUG", "silent", 0)
    }
}
