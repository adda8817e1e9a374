extension RaindropSimulation {
    /// The radius a drop map's blue byte stands for at 255: it holds radius / ``dropRadiusRange`` (larger drops
    /// read as this).
    package static let dropRadiusRange = 32.0

    /// The mist density as one byte per cell (0 clear … 255 misted), rows from the top: ``mistWidth`` ×
    /// ``mistHeight``.
    package func mistBytes() -> [UInt8] {
        mist.map { UInt8((min(1, max(0, $0)) * 255).rounded()) }
    }

    /// The drop map's width and height in cells (``Configuration/dropCell`` pixels each, the last rounded up).
    package var dropMapSize: (width: Int, height: Int) {
        let cell = max(1, configuration.dropCell)
        return (max(1, Int((size.x / cell).rounded(.up))), max(1, Int((size.y / cell).rounded(.up))))
    }

    /// The drops rasterised, RGBA bytes per cell, rows from the top: red and green where the cell lies on the
    /// covering drop, its offset from the centre over the radius (x, y down; 0.5 + 0.5 × offset / radius: the x and
    /// y of the drop's surface normal, as a spherical cap), blue the drop's radius (radius / ``dropRadiusRange``),
    /// alpha how much of the cell the drop covers. Where drops overlap the higher one wins. Empty glass is
    /// (128, 128, 0, 0).
    package func dropMap() -> [UInt8] {
        let (w, h) = dropMapSize
        let cw = size.x / Double(w)
        let ch = size.y / Double(h)
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        var height = [Double](repeating: -1, count: w * h)
        for k in 0..<(w * h) {
            bytes[4 * k] = 128
            bytes[4 * k + 1] = 128
        }
        func byte(_ v: Double) -> UInt8 { UInt8((min(1, max(0, v)) * 255).rounded()) }
        for d in drops {
            let reach = d.radius + max(cw, ch)
            let i0 = max(0, Int(((d.position.x - reach) / cw).rounded(.down)))
            let i1 = min(w - 1, Int(((d.position.x + reach) / cw).rounded(.down)))
            let j0 = max(0, Int(((d.position.y - reach) / ch).rounded(.down)))
            let j1 = min(h - 1, Int(((d.position.y + reach) / ch).rounded(.down)))
            guard i0 <= i1, j0 <= j1 else { continue }
            for j in j0...j1 {
                for i in i0...i1 {
                    let offset = SIMD2((Double(i) + 0.5) * cw, (Double(j) + 0.5) * ch) - d.position
                    let l = (offset * offset).sum().squareRoot() / d.radius
                    let coverage = min(1, max(0, (1 - l) * d.radius / max(cw, ch) + 0.5))
                    guard coverage > 0 else { continue }
                    let cap = (max(0, 1 - l * l)).squareRoot()
                    let k = j * w + i
                    guard cap + coverage > height[k] else { continue }
                    height[k] = cap + coverage
                    let o = offset / (d.radius * max(1, l) * 2)
                    bytes[4 * k] = byte(0.5 + o.x)
                    bytes[4 * k + 1] = byte(0.5 + o.y)
                    bytes[4 * k + 2] = byte(d.radius / Self.dropRadiusRange)
                    bytes[4 * k + 3] = max(bytes[4 * k + 3], byte(coverage))
                }
            }
        }
        return bytes
    }

    /// The glass as one map for a shader that wants a single lookup (misty-glass): per drop-map cell (the size of
    /// ``dropMap()``), red and green the covering drop's surface normal as in the drop map, blue the drop's radius
    /// times its coverage (over ``dropRadiusRange``: the lens's reach), alpha the mist that shows there, the mist
    /// density (bilinear between the mist cells' centres) where no drop covers the glass. Empty, misted glass is
    /// (128, 128, 0, 255).
    /// - Parameter drops: ``dropMap()``, when it was made for this state already.
    package func glassMap(drops: [UInt8]? = nil) -> [UInt8] {
        var bytes = drops ?? dropMap()
        let (w, h) = dropMapSize
        // Where a drop cell's centre falls between mist cells' centres, per column and per row: the lower
        // neighbour, the upper one, and the upper one's weight (worked out once a row and column, not per cell).
        func taps(cells: Int, mistCells: Int) -> [(Int, Int, Float)] {
            let scale = Double(mistCells) / Double(cells)
            return (0..<cells).map { c in
                let x = min(Double(mistCells - 1), max(0, (Double(c) + 0.5) * scale - 0.5))
                let lower = Int(x)
                return (lower, min(mistCells - 1, lower + 1), Float(x - Double(lower)))
            }
        }
        let columns = taps(cells: w, mistCells: mistWidth)
        let rows = taps(cells: h, mistCells: mistHeight)
        let mw = mistWidth
        mist.withUnsafeBufferPointer { mist in
            bytes.withUnsafeMutableBufferPointer { bytes in
                for (j, (j0, j1, fy)) in rows.enumerated() {
                    for (i, (i0, i1, fx)) in columns.enumerated() {
                        let top = mist[j0 * mw + i0] + (mist[j0 * mw + i1] - mist[j0 * mw + i0]) * fx
                        let bottom = mist[j1 * mw + i0] + (mist[j1 * mw + i1] - mist[j1 * mw + i0]) * fx
                        let density = min(1, max(0, top + (bottom - top) * fy))
                        let k = 4 * (j * w + i)
                        let cover = Float(bytes[k + 3]) * (1 / 255)
                        // + 0.5 then truncation: rounding, for values that are never negative
                        bytes[k + 2] = UInt8(Float(bytes[k + 2]) * cover + 0.5)
                        bytes[k + 3] = UInt8(density * (1 - cover) * 255 + 0.5)
                    }
                }
            }
        }
        return bytes
    }
}
