/// What a shader stage reads that can change from one frame to the next, at the same size and with the same content.
///
/// A stage that reads none of these is **static**: `PassPlanner` bakes it into a texture that is drawn once and reused
/// until an input changes (a resize, a hot reload, new content). The layer's `size` is not among them: a resize
/// re-bakes.
package struct FrameDependencies: OptionSet, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Time: the `time` binding, `iTime`, `iTimeDelta`, `iFrame`.
    package static let time = FrameDependencies(rawValue: 1 << 0)
    /// Motion: the `tilt`, `gravity`, `euler`, `rotationRate` and `attitude` bindings and their `i…` uniforms.
    package static let motion = FrameDependencies(rawValue: 1 << 1)
    /// The pointer: the `pointer` binding, `iMouse`, `tilt_pointer`.
    package static let pointer = FrameDependencies(rawValue: 1 << 2)
    /// The stage's own previous frame (`samplePrevious`, a stateful effect).
    package static let previousFrame = FrameDependencies(rawValue: 1 << 3)
    /// Everything: what a stage whose source cannot be read is taken to depend on.
    package static let all: FrameDependencies = [.time, .motion, .pointer, .previousFrame]

    /// Whether the stage reads nothing that changes per frame.
    package var isStatic: Bool { isEmpty }

    package var description: String {
        let names: [(FrameDependencies, String)] = [
            (.time, "time"), (.motion, "motion"), (.pointer, "pointer"), (.previousFrame, "previous frame"),
        ]
        let parts = names.filter { contains($0.0) }.map(\.1)
        return parts.isEmpty ? "static" : parts.joined(separator: ", ")
    }

    /// The built-in uniforms and helpers a preset's GLSL may name, and what each depends on: the table of
    /// ``BuiltinUniform``s, and the Shadertoy inputs and helpers the renderer sets apart from it.
    static let builtinNames: [String: FrameDependencies] = Dictionary(
        uniqueKeysWithValues: BuiltinUniform.all.filter { !$0.dependencies.isEmpty }.map { ($0.name, $0.dependencies) }
            + [
                ("iDate", .time), ("iFrameRate", .time), ("iChannelTime", .time),
                ("samplePrevious", .previousFrame),
            ])
}
