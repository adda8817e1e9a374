extension ArgumentBinding {
    /// What a value with this binding changes with from frame to frame (`size` and constants: nothing).
    public var dependencies: FrameDependencies {
        switch self {
        case .constant, .size: []
        case .tilt, .gravity, .euler, .rotationRate, .attitude: .motion
        case .time: .time
        case .pointer: .pointer
        }
    }
}
