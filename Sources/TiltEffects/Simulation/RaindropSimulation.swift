import FoundationEssentials
import Glibc
import TiltCore

/// Raindrops on a misted window, simulated on the CPU with no GL: the state behind the `raindrops` simulation of a
/// preset (misty-glass).
///
/// The glass holds a **mist density** grid (0 clear … 1 fully misted, one cell per ``Configuration/mistCell``
/// canvas pixels) that regrows everywhere at ``Configuration/regrowPerSecond``, and a list of **drops** (position and
/// radius in canvas pixels, origin top-left, y down). Each ``step(_:)``:
///
/// 1. the mist regrows;
/// 2. new drops land at random places with random sizes (mostly small);
/// 3. each drop heavy enough for the gravity in the screen's plane slides along it, wandering a little from side to
///    side; shaking the device (rotation rate, user acceleration) loosens drops so smaller ones slide too. A sliding
///    drop clears the mist along its trail and now and then leaves a small drop behind, losing that volume;
/// 4. drops that touch merge into one with their summed volume (radius³), at their volume-weighted centre;
/// 5. a pressed pointer wipes the mist and the drops under it;
/// 6. drops that left the glass are dropped.
///
/// Everything random comes from one ``SeededRandom`` seeded with ``Configuration/seed``: the same configuration, size
/// and sequence of inputs give the same state, bit for bit.
package struct RaindropSimulation: Sendable, Equatable {
    /// One drop on the glass.
    package struct Drop: Sendable, Hashable {
        /// Its centre in canvas pixels, origin top-left, y down.
        package var position: SIMD2<Double>
        /// Its radius in pixels.
        package var radius: Double
        /// Its velocity in pixels per second.
        package var velocity: SIMD2<Double>
        /// How far (radians) its path currently turns from straight down the gravity: a slow random walk.
        var wander: Double = 0

        /// A drop at rest.
        package init(position: SIMD2<Double>, radius: Double, velocity: SIMD2<Double> = .zero) {
            self.position = position
            self.radius = radius
            self.velocity = velocity
        }

        /// Its volume, in units of pixels³ (a drop is a cap of the same shape at every size, so radius³ up to a
        /// constant): merging conserves it.
        package var volume: Double { radius * radius * radius }
    }

    /// What moves the drops for one step.
    package struct Input: Sendable, Hashable {
        /// Seconds since the previous step (steps over ``RaindropSimulation/maxTimeStep`` count as that long).
        package var timeDelta: Double
        /// Gravity projected on the screen, in the picture's axes (x right, y **down**), m/s².
        package var gravity: SIMD2<Double>
        /// How hard the device is shaken: the rotation rate's magnitude (rad/s) plus half the user acceleration's
        /// (m/s²).
        package var shake: Double
        /// The pointer in canvas pixels while a button is held (it wipes), `nil` otherwise.
        package var pointer: SIMD2<Double>?

        /// An input from its parts.
        package init(
            timeDelta: Double, gravity: SIMD2<Double>, shake: Double = 0, pointer: SIMD2<Double>? = nil
        ) {
            self.timeDelta = timeDelta
            self.gravity = gravity
            self.shake = shake
            self.pointer = pointer
        }

        /// The input of a rendered frame: its time step, its gravity (device frame, m/s²) projected on the screen
        /// (device x right, y up, so the picture's y is the device's −y), its rotation rate and user acceleration,
        /// and the pointer while a button is down.
        package init(frame f: FrameInputs) {
            self.init(
                timeDelta: f.timeDelta, gravity: Self.screenGravity(device: f.gravity),
                shake: Self.shake(rotationRate: f.rotationRate, userAcceleration: f.userAcceleration),
                pointer: f.pointerDown ? f.pointer : nil)
        }

        /// Gravity in the device frame projected on the screen, in the picture's axes (x right, y down).
        package static func screenGravity(device g: SIMD3<Double>) -> SIMD2<Double> {
            SIMD2(g.x, -g.y)
        }

        /// The shake measure: rotation rate magnitude (rad/s) plus half the user acceleration's (m/s²).
        package static func shake(rotationRate: SIMD3<Double>, userAcceleration: SIMD3<Double>) -> Double {
            (rotationRate * rotationRate).sum().squareRoot()
                + 0.5 * (userAcceleration * userAcceleration).sum().squareRoot()
        }
    }

    /// The longest time step simulated at once (s): a longer pause between frames counts as this, so a stalled
    /// frame does not teleport the drops.
    package static let maxTimeStep = 0.1

    /// The settings.
    package let configuration: Configuration
    /// The canvas size in pixels.
    package let size: SIMD2<Double>
    /// The mist grid's width in cells.
    package let mistWidth: Int
    /// The mist grid's height in cells.
    package let mistHeight: Int
    /// The mist density per cell, row by row from the top, 0 (clear) … 1 (misted).
    package private(set) var mist: [Float]
    /// The drops on the glass.
    package private(set) var drops: [Drop]
    /// Seconds simulated.
    package private(set) var time: Double = 0
    /// Steps taken.
    package private(set) var stepCount = 0
    private var random: SeededRandom
    private var spawnDebt = 0.0
    private var lastPointer: SIMD2<Double>?

    /// A misted glass of `size` pixels (each side at least 1) with its first drops.
    package init(configuration: Configuration = .init(), size: SIMD2<Double>) {
        self.configuration = configuration
        self.size = SIMD2(max(1, size.x), max(1, size.y))
        let cell = max(1, configuration.mistCell)
        mistWidth = max(1, Int((self.size.x / cell).rounded(.up)))
        mistHeight = max(1, Int((self.size.y / cell).rounded(.up)))
        mist = Array(repeating: Float(min(1, max(0, configuration.initialMist))), count: mistWidth * mistHeight)
        drops = []
        random = SeededRandom(seed: configuration.seed)
        let initial = Int((configuration.initialDrops * megapixels).rounded())
        for _ in 0..<min(initial, configuration.maxDrops) { drops.append(randomDrop()) }
    }

    /// The glass's area in megapixels.
    var megapixels: Double { size.x * size.y / 1e6 }

    /// Advances the glass by one step.
    package mutating func step(_ input: Input) {
        let dt = min(max(0, input.timeDelta), Self.maxTimeStep)
        time += dt
        stepCount += 1
        regrow(dt)
        spawn(dt)
        move(dt, input)
        merge()
        wipe(input.pointer)
        drops.removeAll {
            $0.position.x < -$0.radius || $0.position.x > size.x + $0.radius || $0.position.y < -$0.radius
                || $0.position.y > size.y + $0.radius
        }
    }

    /// The mist density at a canvas position (the cell holding it).
    package func mist(at position: SIMD2<Double>) -> Float {
        let i = min(mistWidth - 1, max(0, Int(position.x / size.x * Double(mistWidth))))
        let j = min(mistHeight - 1, max(0, Int(position.y / size.y * Double(mistHeight))))
        return mist[j * mistWidth + i]
    }

    /// The mean mist density over the cells whose centres lie within `radius` of `centre`.
    package func meanMist(around centre: SIMD2<Double>, radius: Double) -> Double {
        var sum = 0.0
        var n = 0
        let cw = size.x / Double(mistWidth)
        let ch = size.y / Double(mistHeight)
        for j in 0..<mistHeight {
            for i in 0..<mistWidth {
                let p = SIMD2((Double(i) + 0.5) * cw, (Double(j) + 0.5) * ch) - centre
                if (p * p).sum() <= radius * radius {
                    sum += Double(mist[j * mistWidth + i])
                    n += 1
                }
            }
        }
        return n == 0 ? Double(mist(at: centre)) : sum / Double(n)
    }

    /// The total volume of the drops.
    package var totalVolume: Double { drops.reduce(0) { $0 + $1.volume } }

    /// Replaces the drops (for tests and tools that set up a scene).
    package mutating func setDrops(_ newDrops: [Drop]) {
        drops = newDrops
    }

    private mutating func regrow(_ dt: Double) {
        let grow = Float(configuration.regrowPerSecond * dt)
        guard grow > 0 else { return }
        for i in mist.indices { mist[i] = min(1, mist[i] + grow) }
    }

    private mutating func spawn(_ dt: Double) {
        spawnDebt += configuration.dropsPerSecond * megapixels * dt * random.uniform(0...2)
        while spawnDebt >= 1 {
            spawnDebt -= 1
            if drops.count < configuration.maxDrops { drops.append(randomDrop()) }
        }
    }

    /// A drop at a random place, its radius between the smallest and largest, mostly small.
    private mutating func randomDrop() -> Drop {
        let c = configuration
        let p = SIMD2(random.unit() * size.x, random.unit() * size.y)
        let ratio = max(1, c.maxRadius / max(c.minRadius, 0.1))
        let r = max(c.minRadius, 0.1) * pow(ratio, pow(random.unit(), 2))
        return Drop(position: p, radius: r)
    }

    private mutating func move(_ dt: Double, _ input: Input) {
        guard dt > 0 else { return }
        let c = configuration
        let g = input.gravity
        let strength = (g * g).sum().squareRoot()
        let down = strength > 1e-9 ? g / strength : .zero
        let loosen = max(0, input.shake - c.shakeThreshold) * c.shakeLoosening
        var left: [Drop] = []
        for index in drops.indices {
            var d = drops[index]
            let drive = (d.radius / c.slideRadius) * (d.radius / c.slideRadius) * (strength / 9.80665) * (1 + loosen)
            var target = SIMD2<Double>.zero
            if drive > 1 {
                d.wander = min(0.35, max(-0.35, d.wander * (1 - dt) + random.uniform(-1...1) * 1.5 * dt))
                let (s, co) = (sin(d.wander), cos(d.wander))
                let heading = SIMD2(down.x * co - down.y * s, down.x * s + down.y * co)
                target = heading * min(c.slideSpeed * (drive - 1), c.maxSpeed)
            }
            d.velocity += (target - d.velocity) * min(1, dt * 12)
            let from = d.position
            d.position += d.velocity * dt
            let step = d.position - from
            let distance = (step * step).sum().squareRoot()
            if distance > 1e-6 {
                clearMist(from: from, to: d.position, radius: d.radius * 0.9)
                var chance = distance * c.trailDropChance
                while chance > 0, random.unit() < chance, d.radius > 2 * c.minRadius {
                    chance -= 1
                    let r = d.radius * random.uniform(0.2...0.35)
                    d.radius = Glibc.cbrt(d.volume - r * r * r)
                    // Behind the drop, out of its reach so that it does not merge back at once.
                    let back = step / distance * (d.radius + r) * (c.mergeReach + 0.3)
                    let side = SIMD2(-step.y, step.x) / distance * random.uniform(-0.25...0.25) * d.radius
                    left.append(Drop(position: d.position - back + side, radius: r))
                }
            }
            drops[index] = d
        }
        drops += left
    }

    /// Merges every pair of drops that touch, conserving volume and momentum.
    private mutating func merge() {
        let reach = configuration.mergeReach
        var alive = Array(repeating: true, count: drops.count)
        var merged = false
        for i in drops.indices where alive[i] {
            for j in drops.indices where j > i && alive[j] {
                let a = drops[i]
                let b = drops[j]
                let gap = b.position - a.position
                let touch = (a.radius + b.radius) * reach
                guard (gap * gap).sum() < touch * touch else { continue }
                let va = a.volume
                let vb = b.volume
                let total = va + vb
                var m = a
                m.position = (a.position * va + b.position * vb) / total
                m.velocity = (a.velocity * va + b.velocity * vb) / total
                m.radius = Glibc.cbrt(total)
                drops[i] = m
                alive[j] = false
                merged = true
            }
        }
        if merged { drops = drops.indices.filter { alive[$0] }.map { drops[$0] } }
    }

    private mutating func wipe(_ pointer: SIMD2<Double>?) {
        defer { lastPointer = pointer }
        guard let pointer else { return }
        let from = lastPointer ?? pointer
        let r = configuration.wipeRadius
        clearMist(from: from, to: pointer, radius: r)
        drops.removeAll { Self.distance($0.position, segment: from, pointer) < r }
    }

    /// Clears the mist within `radius` of the segment `a`–`b`, fully inside 60 % of it and fading out to its edge.
    mutating func clearMist(from a: SIMD2<Double>, to b: SIMD2<Double>, radius: Double) {
        let cw = size.x / Double(mistWidth)
        let ch = size.y / Double(mistHeight)
        let r = max(radius, 0.75 * max(cw, ch))
        let lo = SIMD2(min(a.x, b.x), min(a.y, b.y)) - r
        let hi = SIMD2(max(a.x, b.x), max(a.y, b.y)) + r
        let i0 = max(0, Int((lo.x / cw).rounded(.down)))
        let i1 = min(mistWidth - 1, Int((hi.x / cw).rounded(.down)))
        let j0 = max(0, Int((lo.y / ch).rounded(.down)))
        let j1 = min(mistHeight - 1, Int((hi.y / ch).rounded(.down)))
        guard i0 <= i1, j0 <= j1 else { return }
        for j in j0...j1 {
            for i in i0...i1 {
                let p = SIMD2((Double(i) + 0.5) * cw, (Double(j) + 0.5) * ch)
                let d = Self.distance(p, segment: a, b)
                guard d < r else { continue }
                let k = j * mistWidth + i
                mist[k] = min(mist[k], Float(max(0, (d / r - 0.6) / 0.4)))
            }
        }
    }

    /// The distance from `p` to the segment `a`–`b`.
    static func distance(_ p: SIMD2<Double>, segment a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        let ab = b - a
        let length2 = (ab * ab).sum()
        let t = length2 > 0 ? min(1, max(0, ((p - a) * ab).sum() / length2)) : 0
        let q = p - (a + ab * t)
        return (q * q).sum().squareRoot()
    }
}
