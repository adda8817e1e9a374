import FoundationEssentials
import TiltCore

/// A 3×3 matrix of `Double`, row-major, for calibration (scale and misalignment, soft iron, mounting).
package struct Matrix3: Hashable, Sendable, CustomStringConvertible {
    /// The nine elements, row by row.
    package private(set) var elements: [Double]

    /// The identity.
    package static let identity = Matrix3(diagonal: Vector3(1, 1, 1))

    /// A matrix from nine row-major elements, or `nil` unless there are exactly nine finite numbers.
    package init?(rowMajor elements: [Double]) {
        guard elements.count == 9, elements.allSatisfy(\.isFinite) else { return nil }
        self.elements = elements
    }

    /// A matrix from its rows.
    package init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        elements = [r0.x, r0.y, r0.z, r1.x, r1.y, r1.z, r2.x, r2.y, r2.z]
    }

    /// A diagonal matrix.
    package init(diagonal d: Vector3) {
        elements = [d.x, 0, 0, 0, d.y, 0, 0, 0, d.z]
    }

    /// The element at `row`, `column` (both 0…2).
    package subscript(row: Int, column: Int) -> Double {
        get { elements[row * 3 + column] }
        set { elements[row * 3 + column] = newValue }
    }

    /// `M·v`.
    package func apply(_ v: Vector3) -> Vector3 {
        let e = elements
        return Vector3(
            e[0] * v.x + e[1] * v.y + e[2] * v.z,
            e[3] * v.x + e[4] * v.y + e[5] * v.z,
            e[6] * v.x + e[7] * v.y + e[8] * v.z)
    }

    /// `A·B`.
    package static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        var out = Matrix3.identity
        for i in 0..<3 {
            for j in 0..<3 {
                out[i, j] = a[i, 0] * b[0, j] + a[i, 1] * b[1, j] + a[i, 2] * b[2, j]
            }
        }
        return out
    }

    /// The transpose.
    package var transposed: Matrix3 {
        var out = self
        for i in 0..<3 { for j in 0..<3 { out[i, j] = self[j, i] } }
        return out
    }

    /// The determinant.
    package var determinant: Double {
        let e = elements
        return e[0] * (e[4] * e[8] - e[5] * e[7]) - e[1] * (e[3] * e[8] - e[5] * e[6])
            + e[2] * (e[3] * e[7] - e[4] * e[6])
    }

    /// The inverse, or `nil` when the matrix is singular (or nearly so).
    package var inverse: Matrix3? {
        let e = elements
        let det = determinant
        let scale = e.map(abs).max() ?? 0
        guard det.isFinite, abs(det) > 1e-12 * max(scale * scale * scale, 1e-300) else { return nil }
        let cof: [Double] = [
            e[4] * e[8] - e[5] * e[7], e[2] * e[7] - e[1] * e[8], e[1] * e[5] - e[2] * e[4],
            e[5] * e[6] - e[3] * e[8], e[0] * e[8] - e[2] * e[6], e[2] * e[3] - e[0] * e[5],
            e[3] * e[7] - e[4] * e[6], e[1] * e[6] - e[0] * e[7], e[0] * e[4] - e[1] * e[3],
        ]
        return Matrix3(rowMajor: cof.map { $0 / det })
    }

    /// The largest absolute difference between corresponding elements.
    package func maxDifference(to other: Matrix3) -> Double {
        zip(elements, other.elements).map { abs($0 - $1) }.max() ?? 0
    }

    /// Nine comma-separated numbers, row-major, as calibration files write them.
    package var description: String {
        stride(from: 0, to: 9, by: 3).map { i in
            elements[i..<i + 3].map { formatCalibrationNumber($0) }
                .joined(separator: ", ")
        }.joined(separator: ",  ")
    }
}

/// A number as calibration files write it: up to nine significant digits, no trailing zeros.
func formatCalibrationNumber(_ x: Double) -> String {
    if x == 0 { return "0" }
    return String(printf: "%.9g", x)
}
