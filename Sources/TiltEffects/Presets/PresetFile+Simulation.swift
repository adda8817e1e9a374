extension PresetFile {
    /// A preset's `"simulation"` as written: its `kind` and any of the settings of that kind's `Configuration`.
    struct SimulationEntry: Decodable {
        var kind: String
        var seed: Double?
        var mistCell: Double?
        var dropCell: Double?
        var initialMist: Double?
        var regrowPerSecond: Double?
        var initialDrops: Double?
        var dropsPerSecond: Double?
        var minRadius: Double?
        var maxRadius: Double?
        var slideRadius: Double?
        var slideSpeed: Double?
        var maxSpeed: Double?
        var shakeThreshold: Double?
        var shakeLoosening: Double?
        var trailDropChance: Double?
        var mergeReach: Double?
        var wipeRadius: Double?
        var maxDrops: Double?

        /// The keys a simulation may hold.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case kind, seed, mistCell, dropCell, initialMist, regrowPerSecond, initialDrops, dropsPerSecond
            case minRadius, maxRadius, slideRadius, slideSpeed, maxSpeed, shakeThreshold, shakeLoosening
            case trailDropChance, mergeReach, wipeRadius, maxDrops
        }

        /// The simulation, each setting checked against its range.
        func resolve(file: String) throws(PresetError) -> PresetSimulation {
            guard kind == "raindrops" else {
                throw .invalid(file, field: "simulation.kind", reason: "'\(kind)' is not one of raindrops")
            }
            var c = RaindropSimulation.Configuration()
            func set(
                _ value: Double?, _ key: CodingKeys, _ range: ClosedRange<Double>, integer: Bool = false,
                _ apply: (Double) -> Void
            ) throws(PresetError) {
                guard let value else { return }
                guard range.contains(value), !integer || value == value.rounded() else {
                    let what = integer ? "a whole number" : "a number"
                    throw .invalid(
                        file, field: "simulation.\(key.rawValue)",
                        reason: "\(value) is out of range; give \(what) from \(range.lowerBound) to \(range.upperBound)"
                    )
                }
                apply(value)
            }
            try set(seed, .seed, 0...9_007_199_254_740_991, integer: true) { c.seed = UInt64($0) }
            try set(mistCell, .mistCell, 1...64) { c.mistCell = $0 }
            try set(dropCell, .dropCell, 1...64) { c.dropCell = $0 }
            try set(initialMist, .initialMist, 0...1) { c.initialMist = $0 }
            try set(regrowPerSecond, .regrowPerSecond, 0...100) { c.regrowPerSecond = $0 }
            try set(initialDrops, .initialDrops, 0...10_000) { c.initialDrops = $0 }
            try set(dropsPerSecond, .dropsPerSecond, 0...10_000) { c.dropsPerSecond = $0 }
            try set(minRadius, .minRadius, 0.5...100) { c.minRadius = $0 }
            try set(maxRadius, .maxRadius, 0.5...100) { c.maxRadius = $0 }
            try set(slideRadius, .slideRadius, 0.5...1000) { c.slideRadius = $0 }
            try set(slideSpeed, .slideSpeed, 0...100_000) { c.slideSpeed = $0 }
            try set(maxSpeed, .maxSpeed, 0...100_000) { c.maxSpeed = $0 }
            try set(shakeThreshold, .shakeThreshold, 0...1000) { c.shakeThreshold = $0 }
            try set(shakeLoosening, .shakeLoosening, 0...1000) { c.shakeLoosening = $0 }
            try set(trailDropChance, .trailDropChance, 0...1) { c.trailDropChance = $0 }
            try set(mergeReach, .mergeReach, 0...2) { c.mergeReach = $0 }
            try set(wipeRadius, .wipeRadius, 0...10_000) { c.wipeRadius = $0 }
            try set(maxDrops, .maxDrops, 0...100_000, integer: true) { c.maxDrops = Int($0) }
            guard c.maxRadius >= c.minRadius else {
                throw .invalid(
                    file, field: "simulation.maxRadius",
                    reason: "\(c.maxRadius) is less than minRadius \(c.minRadius); give maxRadius ≥ minRadius")
            }
            return PresetSimulation(kind: .raindrops(c))
        }
    }

    /// A layer effect's `"blur"` as written.
    struct BlurEntry: Decodable {
        var radius: Double
        var downsample: Double?
        var passes: Double?

        /// The keys a blur may hold.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case radius, downsample, passes
        }

        /// The blur, checked.
        func resolve(file: String, field: String) throws(PresetError) -> LayerBlur {
            guard radius > 0, radius <= 200 else {
                throw .invalid(
                    file, field: "\(field).radius", reason: "\(radius) is out of range; give 0 < radius ≤ 200 px")
            }
            let downsample = self.downsample ?? 4
            guard (1...8).contains(downsample), downsample == downsample.rounded() else {
                throw .invalid(
                    file, field: "\(field).downsample", reason: "\(downsample) is not a whole number from 1 to 8")
            }
            let passes = self.passes ?? 2
            guard (1...4).contains(passes), passes == passes.rounded() else {
                throw .invalid(file, field: "\(field).passes", reason: "\(passes) is not a whole number from 1 to 4")
            }
            return LayerBlur(radius: radius, downsample: Int(downsample), passes: Int(passes))
        }
    }
}
