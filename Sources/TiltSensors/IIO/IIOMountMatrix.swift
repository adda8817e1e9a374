import TiltCore

/// A 3×3 mount matrix that turns a sensor's axes into the device frame (x right, y up, z out of the screen).
///
/// Read from the kernel's `in_accel_mount_matrix` / `mount_matrix` attribute or from udev's `ACCEL_MOUNT_MATRIX`
/// property, both written as three rows, `a, b, c; d, e, f; g, h, i`. A reading `v` becomes `M·v`.
package struct IIOMountMatrix: Hashable, Sendable, CustomStringConvertible {
    /// Row-major elements.
    package var rows: [Double]

    /// The identity: the sensor's axes already are the device's.
    package static let identity = IIOMountMatrix(rows: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// Creates a matrix from nine row-major elements.
    package init(rows: [Double]) {
        precondition(rows.count == 9, "a mount matrix has nine elements")
        self.rows = rows
    }

    /// Parses `a, b, c; d, e, f; g, h, i` (commas or spaces between elements, semicolons between rows).
    ///
    /// - Throws: ``IIOError`` when there are not nine finite numbers.
    package init(parsing text: String) throws(IIOError) {
        let parts = text.trimmingIIOWhitespace().split(whereSeparator: { $0 == "," || $0 == ";" || $0 == " " })
        let values = parts.compactMap { Double($0) }
        guard parts.count == 9, values.count == 9, values.allSatisfy(\.isFinite) else {
            throw IIOError.badMountMatrix(text)
        }
        self.rows = values
    }

    /// `M·v`.
    package func apply(_ v: Vector3) -> Vector3 {
        Vector3(
            rows[0] * v.x + rows[1] * v.y + rows[2] * v.z,
            rows[3] * v.x + rows[4] * v.y + rows[5] * v.z,
            rows[6] * v.x + rows[7] * v.y + rows[8] * v.z)
    }

    /// The kernel's text form.
    package var description: String {
        func f(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }
        return stride(from: 0, to: 9, by: 3).map { i in (i..<i + 3).map { f(rows[$0]) }.joined(separator: ", ") }
            .joined(separator: "; ")
    }
}
