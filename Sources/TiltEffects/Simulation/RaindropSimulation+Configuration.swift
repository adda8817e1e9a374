extension RaindropSimulation {
    /// The settings of a raindrop simulation: a preset's `"simulation": {"kind": "raindrops", …}` sets any of them
    /// by name ([Presets/README.md](../../Presets/README.md)). Lengths are canvas pixels.
    public struct Configuration: Sendable, Hashable {
        /// The seed of the random sequence (default 1): the same seed and inputs give the same glass.
        public var seed: UInt64 = 1
        /// The side of a mist-density cell (default 4 px: a quarter of the canvas's resolution).
        public var mistCell = 4.0
        /// The side of a drop-map cell (default 2 px: half the canvas's resolution).
        public var dropCell = 2.0
        /// How thick the mist is where it starts, 0…1 (default 1).
        public var initialMist = 1.0
        /// How fast cleared glass fogs over again, density per second (default 0.08: about 12 s from clear).
        public var regrowPerSecond = 0.08
        /// Drops on the glass at the start, per megapixel (default 160).
        public var initialDrops = 160.0
        /// New drops landing per second, per megapixel (default 40).
        public var dropsPerSecond = 40.0
        /// The smallest radius of a new drop (default 1.5 px).
        public var minRadius = 1.5
        /// The largest radius of a new drop (default 9 px); merged drops grow beyond it.
        public var maxRadius = 9.0
        /// The radius at which a drop starts to slide when the screen is upright (1 g in its plane; default 5 px).
        /// A drop slides when (radius / slideRadius)² × (in-plane gravity / 1 g) × (1 + loosening) exceeds 1.
        public var slideRadius = 5.0
        /// How fast a sliding drop goes per unit of that excess (default 160 px/s).
        public var slideSpeed = 160.0
        /// The fastest a drop slides (default 700 px/s).
        public var maxSpeed = 700.0
        /// The shake (rad/s of rotation rate plus half the m/s² of user acceleration) below which drops hold
        /// (default 1.5).
        public var shakeThreshold = 1.5
        /// How much each unit of shake above the threshold multiplies the drive to slide (default 1).
        public var shakeLoosening = 1.0
        /// The chance, per pixel a drop slides, that it leaves a small drop behind (default 0.04).
        public var trailDropChance = 0.04
        /// Two drops merge when their centres are closer than this fraction of their summed radii (default 0.85).
        public var mergeReach = 0.85
        /// The radius a pressed pointer wipes (default 28 px).
        public var wipeRadius = 28.0
        /// The most drops on the glass (default 900); no new drop lands while there are that many.
        public var maxDrops = 900

        /// The defaults.
        public init() {}
    }
}
