extension ArgumentBinding {
    /// What a value with this binding changes with from frame to frame (`size`, constants and textures: nothing).
    public var dependencies: FrameDependencies {
        switch self {
        case .constant, .size, .texture: []  // a named texture changes only on a reload
        case .tilt, .gravity, .euler, .rotationRate, .attitude: .motion
        case .time: .time
        case .pointer: .pointer
        }
    }
}
