extension ArgumentBinding {
    /// What a value with this binding changes with from frame to frame (`size`, constants and textures: nothing).
    package var dependencies: FrameDependencies {
        builtin?.dependencies ?? []  // constants, `size` and named textures (changed only on a reload): nothing
    }
}
