import Foundation
import Testing
import TiltEffects

/// The raindrop simulation behind misty-glass: deterministic, drops sliding with gravity, merging, trails that clear
/// the mist which fogs over again, the pointer's wipe, shaking.
@Suite struct RaindropSimulationTests {
    /// Gravity of a device held upright (its top up), projected on the screen: down the picture.
    static let upright = RaindropSimulation.Input.screenGravity(device: [0, -9.80665, 0])
    /// Turned 90° clockwise about the screen's normal (left edge up, as in Tests/Fixtures/turn-left-up.csv):
    /// gravity along the device's +x, to the picture's right.
    static let leftUp = RaindropSimulation.Input.screenGravity(device: [9.80665, 0, 0])

    /// A quiet glass: no drops land, none at the start, none left behind, unless a test asks.
    static func quiet(_ change: (inout RaindropSimulation.Configuration) -> Void = { _ in })
        -> RaindropSimulation.Configuration
    {
        var c = RaindropSimulation.Configuration()
        c.initialDrops = 0
        c.dropsPerSecond = 0
        c.trailDropChance = 0
        change(&c)
        return c
    }

    static func run(
        _ sim: inout RaindropSimulation, seconds: Double, gravity: SIMD2<Double>, shake: Double = 0,
        pointer: SIMD2<Double>? = nil
    ) {
        for _ in 0..<Int((seconds * 30).rounded()) {
            sim.step(.init(timeDelta: 1.0 / 30, gravity: gravity, shake: shake, pointer: pointer))
        }
    }

    @Test func theSameSeedAndInputsGiveTheSameGlass() {
        var config = RaindropSimulation.Configuration()
        config.seed = 42
        config.trailDropChance = 0.1
        var a = RaindropSimulation(configuration: config, size: [320, 240])
        var b = RaindropSimulation(configuration: config, size: [320, 240])
        #expect(a.drops.count > 5)
        for i in 0..<150 {
            let input = RaindropSimulation.Input(
                timeDelta: 1.0 / 30, gravity: i < 70 ? Self.upright : Self.leftUp, shake: i % 40 < 5 ? 4 : 0,
                pointer: (60..<70).contains(i) ? [Double(i) * 3, 100] : nil)
            a.step(input)
            b.step(input)
        }
        #expect(a == b)
        #expect(a.dropMap() == b.dropMap() && a.mistBytes() == b.mistBytes())
        config.seed = 43
        #expect(
            RaindropSimulation(configuration: config, size: [320, 240]).drops
                != RaindropSimulation(configuration: config.withSeed(42), size: [320, 240]).drops)
    }

    @Test func aHeavyDropSlidesDownWhenUprightAndSidewaysWhenTurned() throws {
        var sim = RaindropSimulation(configuration: Self.quiet(), size: [400, 400])
        sim.setDrops([.init(position: [100, 60], radius: 8)])
        Self.run(&sim, seconds: 0.5, gravity: Self.upright)
        let down = try #require(sim.drops.first).position - [100, 60]
        #expect(down.y > 20)
        #expect(abs(down.x) < 0.75 * down.y)

        var turned = RaindropSimulation(configuration: Self.quiet(), size: [400, 400])
        turned.setDrops([.init(position: [60, 100], radius: 8)])
        Self.run(&turned, seconds: 0.5, gravity: Self.leftUp)
        let side = try #require(turned.drops.first).position - [60, 100]
        #expect(side.x > 20)
        #expect(abs(side.y) < 0.75 * side.x)
    }

    @Test func aSmallDropHoldsAndLyingFlatNothingSlides() throws {
        var sim = RaindropSimulation(configuration: Self.quiet(), size: [200, 200])
        sim.setDrops([.init(position: [50, 50], radius: 2.5), .init(position: [150, 50], radius: 9)])
        Self.run(&sim, seconds: 1, gravity: RaindropSimulation.Input.screenGravity(device: [0, 0, -9.81]))
        #expect(sim.drops.map(\.position) == [[50, 50], [150, 50]])
        Self.run(&sim, seconds: 1, gravity: Self.upright)
        #expect(sim.drops.first?.position == [50, 50])
    }

    @Test func touchingDropsMergeIntoOneWithTheirVolume() throws {
        var sim = RaindropSimulation(configuration: Self.quiet(), size: [200, 200])
        let a = RaindropSimulation.Drop(position: [100, 100], radius: 4)
        let b = RaindropSimulation.Drop(position: [105, 100], radius: 3)
        let far = RaindropSimulation.Drop(position: [20, 20], radius: 3)
        sim.setDrops([a, b, far])
        sim.step(.init(timeDelta: 1.0 / 30, gravity: .zero))
        #expect(sim.drops.count == 2)
        let merged = try #require(sim.drops.first)
        #expect(abs(merged.volume - (a.volume + b.volume)) < 1e-9)
        #expect(merged.radius > a.radius)
        // At the volume-weighted centre: nearer the bigger drop.
        #expect(merged.position.x > 100 && merged.position.x < 102.5)
    }

    @Test func aSlidingDropLeavesSmallerDropsBehindAndKeepsTheVolume() {
        var sim = RaindropSimulation(configuration: Self.quiet { $0.trailDropChance = 0.1 }, size: [200, 2000])
        sim.setDrops([.init(position: [100, 30], radius: 9)])
        let volume = sim.totalVolume
        Self.run(&sim, seconds: 1, gravity: Self.upright)
        #expect(sim.drops.count > 2)
        #expect(sim.drops.filter { $0.radius < 4 }.count >= 2)
        #expect(abs(sim.totalVolume - volume) < 1e-6 * volume)
    }

    @Test func aTrailClearsTheMistWhichFogsOverAgain() throws {
        var sim = RaindropSimulation(configuration: Self.quiet { $0.regrowPerSecond = 0.25 }, size: [200, 1000])
        sim.setDrops([.init(position: [100, 20], radius: 9)])
        Self.run(&sim, seconds: 0.4, gravity: Self.upright)
        let passed = try #require(sim.drops.first).position
        #expect(passed.y > 60)
        #expect(sim.meanMist(around: passed + [0, 40], radius: 3) == 1)
        Self.run(&sim, seconds: 0.6, gravity: Self.upright)
        #expect(try #require(sim.drops.first).position.y > passed.y + 100)
        // On its trail, where it was 0.6 s ago: cleared, and fogging over again since.
        let trail = sim.meanMist(around: passed, radius: 3)
        #expect(trail > 0.05 && trail < 0.3)
        // Beside the trail: still misted.
        #expect(sim.meanMist(around: passed - [60, 0], radius: 3) == 1)
        // Lying flat the drop stops; four seconds later the trail has fogged over again.
        Self.run(&sim, seconds: 4, gravity: .zero)
        #expect(sim.meanMist(around: passed, radius: 3) == 1)
    }

    @Test func thePointerWipesTheMistAndItRegrows() {
        var sim = RaindropSimulation(configuration: Self.quiet { $0.regrowPerSecond = 0.2 }, size: [300, 200])
        sim.setDrops([.init(position: [150, 100], radius: 3)])
        sim.step(.init(timeDelta: 1.0 / 30, gravity: .zero, pointer: [100, 100]))
        sim.step(.init(timeDelta: 1.0 / 30, gravity: .zero, pointer: [200, 100]))
        // Cleared along the stroke, with the drop in its way; misted away from it.
        #expect(sim.meanMist(around: [100, 100], radius: 10) < 0.05)
        #expect(sim.meanMist(around: [150, 100], radius: 10) < 0.05)
        #expect(sim.meanMist(around: [150, 180], radius: 8) > 0.99)
        #expect(sim.drops.isEmpty)
        Self.run(&sim, seconds: 2.5, gravity: .zero)
        let halfway = sim.meanMist(around: [150, 100], radius: 10)
        #expect(halfway > 0.4 && halfway < 0.6)
        Self.run(&sim, seconds: 3, gravity: .zero)
        #expect(sim.meanMist(around: [150, 100], radius: 10) > 0.99)
    }

    @Test func shakingShakesHeldDropsLoose() {
        let drops = (0..<8).map { RaindropSimulation.Drop(position: [25 + Double($0) * 50, 40], radius: 3.5) }
        var still = RaindropSimulation(configuration: Self.quiet(), size: [400, 400])
        still.setDrops(drops)
        Self.run(&still, seconds: 1, gravity: Self.upright)
        #expect(still.drops == drops)

        var shaken = RaindropSimulation(configuration: Self.quiet(), size: [400, 400])
        shaken.setDrops(drops)
        Self.run(&shaken, seconds: 1, gravity: Self.upright, shake: 4)
        #expect(shaken.drops.count == drops.count)
        #expect(shaken.drops.allSatisfy { $0.position.y > 60 })
    }

    @Test func aFramesInputsBecomeTheSimulationsInput() {
        var frame = FrameInputs(timeDelta: 0.02, size: [100, 100], pointer: [10, 20], pointerDown: true)
        frame.gravity = [1, -9, 2]
        frame.rotationRate = [0, 3, 4]
        frame.userAcceleration = [0, 0, 2]
        let input = RaindropSimulation.Input(frame: frame)
        #expect(input.timeDelta == 0.02)
        #expect(input.gravity == [1, 9])
        #expect(input.shake == 6)
        #expect(input.pointer == [10, 20])
        frame.pointerDown = false
        #expect(RaindropSimulation.Input(frame: frame).pointer == nil)
    }

    @Test func theMapsHoldTheMistAndTheDrops() {
        var sim = RaindropSimulation(configuration: Self.quiet(), size: [64, 32])
        sim.setDrops([.init(position: [16, 16], radius: 6)])
        #expect(sim.mistWidth == 16 && sim.mistHeight == 8)
        #expect(sim.mistBytes() == Array(repeating: 255, count: 16 * 8))
        let (w, h) = sim.dropMapSize
        #expect(w == 32 && h == 16)
        let map = sim.dropMap()
        func texel(_ x: Int, _ y: Int) -> [UInt8] { Array(map[(4 * (y * w + x))..<(4 * (y * w + x) + 4)]) }
        // At the centre: covered, the normal straight out, the radius in blue; right of it the normal points right;
        // far away: empty glass.
        #expect(texel(8, 8)[3] == 255 && (145...152).contains(texel(8, 8)[0]) && texel(8, 8)[2] == 48)
        #expect(texel(9, 8)[0] > 135 && texel(9, 8)[3] == 255)
        #expect(texel(28, 4) == [128, 128, 0, 0])
    }

    @Test func theGlassMapIsTheDropsWithTheMistThatShows() throws {
        var sim = RaindropSimulation(configuration: Self.quiet { $0.initialMist = 0.5 }, size: [64, 32])
        sim.setDrops([.init(position: [16, 16], radius: 6)])
        let (w, _) = sim.dropMapSize
        let drops = sim.dropMap()
        let glass = sim.glassMap()
        #expect(glass == sim.glassMap(drops: drops))
        #expect(glass.count == drops.count)
        func texel(_ map: [UInt8], _ x: Int, _ y: Int) -> [UInt8] {
            Array(map[(4 * (y * w + x))..<(4 * (y * w + x) + 4)])
        }
        // Under the drop: its normal as in the drop map, its radius (fully covered), no mist; empty glass shows the
        // half mist; at the drop's edge, partly covered, both in between.
        #expect(texel(glass, 8, 8) == [texel(drops, 8, 8)[0], texel(drops, 8, 8)[1], 48, 0])
        #expect(texel(glass, 28, 4) == [128, 128, 0, 128])
        let edge = (0..<w).map { texel(drops, $0, 8) }.firstIndex { (1...254).contains($0[3]) }
        let x = try #require(edge)
        let cover = Double(texel(drops, x, 8)[3]) / 255
        #expect(abs(Double(texel(glass, x, 8)[2]) - 48 * cover) <= 1)
        #expect(abs(Double(texel(glass, x, 8)[3]) - 127.5 * (1 - cover)) <= 1)
    }
}

extension RaindropSimulation.Configuration {
    func withSeed(_ seed: UInt64) -> Self {
        var c = self
        c.seed = seed
        return c
    }
}
