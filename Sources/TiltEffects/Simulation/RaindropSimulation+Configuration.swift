extension RaindropSimulation {
    /// The settings of a raindrop simulation: a preset's `"simulation": {"kind": "raindrops", …}` sets any of them
    /// by name ([Presets/README.md](../../Presets/README.md)). Lengths are canvas pixels.
    package struct Configuration: Sendable, Hashable {
        /// The seed of the random sequence (default 1): the same seed and inputs give the same glass.
        package var seed: UInt64 = 1
        /// The side of a mist-density cell (default 4 px: a quarter of the canvas's resolution).
        package var mistCell = 4.0
        /// The side of a drop-map cell (default 2 px: half the canvas's resolution).
        package var dropCell = 2.0
        /// How thick the mist is where it starts, 0…1 (default 1).
        package var initialMist = 1.0
        /// How fast cleared glass fogs over again, density per second (default 0.08: about 12 s from clear).
        package var regrowPerSecond = 0.08
        /// Drops on the glass at the start, per megapixel (default 160).
        package var initialDrops = 160.0
        /// New drops landing per second, per megapixel (default 40).
        package var dropsPerSecond = 40.0
        /// The smallest radius of a new drop (default 1.5 px).
        package var minRadius = 1.5
        /// The largest radius of a new drop (default 9 px); merged drops grow beyond it.
        package var maxRadius = 9.0
        /// The radius at which a drop starts to slide when the screen is upright (1 g in its plane; default 5 px).
        /// A drop slides when (radius / slideRadius)² × (in-plane gravity / 1 g) × (1 + loosening) exceeds 1.
        package var slideRadius = 5.0
        /// How fast a sliding drop goes per unit of that excess (default 160 px/s).
        package var slideSpeed = 160.0
        /// The fastest a drop slides (default 700 px/s).
        package var maxSpeed = 700.0
        /// The shake (rad/s of rotation rate plus half the m/s² of user acceleration) below which drops hold
        /// (default 1.5).
        package var shakeThreshold = 1.5
        /// How much each unit of shake above the threshold multiplies the drive to slide (default 1).
        package var shakeLoosening = 1.0
        /// The chance, per pixel a drop slides, that it leaves a small drop behind (default 0.04).
        package var trailDropChance = 0.04
        /// Two drops merge when their centres are closer than this fraction of their summed radii (default 0.85).
        package var mergeReach = 0.85
        /// The radius a pressed pointer wipes (default 28 px).
        package var wipeRadius = 28.0
        /// The most drops on the glass (default 900); no new drop lands while there are that many.
        package var maxDrops = 900

        /// The defaults.
        package init() {}
    }
}
