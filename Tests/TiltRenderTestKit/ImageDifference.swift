/// Per-channel differences between two RGBA8 images of the same size.
public struct ImageDifference {
    public var meanAbsolute: Double
    public var fractionOver32: Double

    public init(_ a: [UInt8], _ b: [UInt8]) {
        precondition(a.count == b.count)
        var total = 0
        var over = 0
        for i in 0..<a.count {
            let d = abs(Int(a[i]) - Int(b[i]))
            total += d
            if d > 32 { over += 1 }
        }
        meanAbsolute = Double(total) / Double(max(a.count, 1))
        fractionOver32 = Double(over) / Double(max(a.count, 1))
    }
}
