/// A `tiltfx` failure that is not a usage mistake (nothing found, a file missing): ArgumentParser prints it as
/// `error: …` without the usage text and exits with status 1, where a `ValidationError` would exit 64 with the usage.
struct TiltFXError: Error, CustomStringConvertible {
    /// What went wrong, where, and what to do.
    let description: String

    init(_ description: String) { self.description = description }
}
