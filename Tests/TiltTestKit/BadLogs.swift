import Foundation

/// Damaged sensor logs for the tests of the bad-row policy and of truncation (docs/log-format.md, "Bad rows and bad
/// files").
public enum BadLogs {
    /// How far into the bundled BROAD excerpt (`.csv.gz`) the truncation tests cut it, as (name, bytes kept): at 30 %
    /// and 70 % of its bytes, and 4 bytes before the end, inside the gzip trailer (CRC and length) after the last
    /// row, where every row is intact but the stream never ends.
    public static var excerptCuts: [(name: String, bytes: Int)] {
        let size = (try? Data(contentsOf: URL(fileURLWithPath: TestPaths.broadExcerpt)).count) ?? 0
        return [("30%", size * 3 / 10), ("70%", size * 7 / 10), ("trailer", size - 4)]
    }

    /// Copies the first `bytes` bytes of the bundled BROAD excerpt into `directory` and returns the copy's path.
    public static func truncatedExcerpt(keeping bytes: Int, in directory: URL) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestPaths.broadExcerpt))
        let path = directory.appendingPathComponent("cut-\(bytes).csv.gz").path
        try data.prefix(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The line of ``withBadRows(in:name:)`` whose `gyr_y` is `nan`.
    public static let nanLine = 52
    /// The line of ``withBadRows(in:name:)`` that has too few fields.
    public static let malformedLine = 122
    /// The good rows of ``withBadRows(in:name:)``.
    public static let goodRows = 298

    /// A still device at 100 Hz for 3 s, with a reference orientation and `movement = 1`, whose row on line
    /// ``nanLine`` has a non-finite `gyr_y` and whose row on line ``malformedLine`` has three fields: what every
    /// log reader skips and counts, and stops at with `--strict`. Returns its path.
    public static func withBadRows(in directory: URL, name: String = "bad.csv") throws -> String {
        var text = "# sampling_rate_hz=100; device=bmi160\n"
        text += "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z,truth_w,truth_x,truth_y,truth_z,movement\n"
        for i in 0..<(goodRows + 2) {
            let t = Double(i) * 0.01
            switch i + 3 {
            case nanLine: text += "\(t),0.001,nan,0,0,0,9.81,1,0,0,0,1\n"
            case malformedLine: text += "\(t),0,0\n"
            default: text += "\(t),0.001,-0.002,0.0005,0.01,-0.02,9.81,1,0,0,0,1\n"
            }
        }
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
