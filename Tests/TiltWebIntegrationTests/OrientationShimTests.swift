import Foundation
import Testing
import TiltTestKit

/// `Web/tilt.js`'s deviceorientation shim, on `Web/example.html` in headless Chromium, against `tiltd --replay`.
@Suite(
    "deviceorientation shim in Chromium", .serialized,
    .enabled(if: HeadlessChromium.isAvailable, "chromium is not installed (scripts/bootstrap installs it)"))
struct OrientationShimTests {
    /// The rotation matrix (device → earth) of a unit quaternion `[w, x, y, z]`, row-major.
    static func matrix(quaternion q: [Double]) -> [[Double]] {
        let n = (q.map { $0 * $0 }.reduce(0, +)).squareRoot()
        let (w, x, y, z) = (q[0] / n, q[1] / n, q[2] / n, q[3] / n)
        return [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    }

    /// The W3C rotation Rz(alpha) · Rx(beta) · Ry(gamma), angles in degrees, built from the three elementary turns.
    static func matrix(alpha: Double, beta: Double, gamma: Double) -> [[Double]] {
        let (a, b, g) = (alpha * .pi / 180, beta * .pi / 180, gamma * .pi / 180)
        let rz = [[cos(a), -sin(a), 0], [sin(a), cos(a), 0], [0, 0, 1]]
        let rx = [[1, 0, 0], [0, cos(b), -sin(b)], [0, sin(b), cos(b)]]
        let ry = [[cos(g), 0, sin(g)], [0, 1, 0], [-sin(g), 0, cos(g)]]
        func product(_ m: [[Double]], _ n: [[Double]]) -> [[Double]] {
            (0..<3).map { i in (0..<3).map { j in (0..<3).map { m[i][$0] * n[$0][j] }.reduce(0, +) } }
        }
        return product(product(rz, rx), ry)
    }

    /// A turn of `degrees` about a unit `axis`, as `[w, x, y, z]`.
    static func turn(_ degrees: Double, _ axis: [Double]) -> [Double] {
        let h = degrees * .pi / 360
        return [cos(h)] + axis.map { $0 * sin(h) }
    }

    static func product(_ a: [Double], _ b: [Double]) -> [Double] {
        [
            a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
            a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
            a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
            a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
        ]
    }

    /// Known poses and their W3C angles (alpha, beta, gamma): flat, turned to a heading, tipped about x and y, past
    /// upright (beta beyond 90°), and a composite pose with every angle away from zero.
    static let poses: [(quaternion: [Double], angles: [Double])] = [
        ([1, 0, 0, 0], [0, 0, 0]),
        (turn(90, [0, 0, 1]), [90, 0, 0]),
        (turn(30, [1, 0, 0]), [0, 30, 0]),
        (turn(30, [0, 1, 0]), [0, 0, 30]),
        (turn(150, [1, 0, 0]), [0, 150, 0]),
        (product(product(turn(200, [0, 0, 1]), turn(-120, [1, 0, 0])), turn(-40, [0, 1, 0])), [200, -120, -40]),
    ]

    @Test("the shim dispatches DeviceOrientationEvents whose angles are the frames' attitudes, across a reconnect")
    func shimFollowsAttitude() throws {
        let pages = try ServedPages()
        let browser = try HeadlessChromium()
        let poses = Self.poses.map { $0.quaternion.map { String($0) }.joined(separator: ",") }.joined(separator: ";")
        try browser.open(pages.page("example.html", "test=1&poses=\(poses)"))
        let result = try browser.testResult()

        let computed = result["poses"] as? [[String: Double]] ?? []
        #expect(computed.count == Self.poses.count)
        for (pose, got) in zip(Self.poses, computed) {
            let angles = [got["alpha"] ?? .nan, got["beta"] ?? .nan, got["gamma"] ?? .nan]
            for (g, want) in zip(angles, pose.angles) {
                #expect(abs(g - want) < 1e-6, "pose \(pose.quaternion): \(angles), expected \(pose.angles)")
            }
        }

        // Real events from real frames: each event's angles rebuild its frame's rotation, within the W3C ranges.
        let events = result["events"] as? [[String: Any]] ?? []
        // 30 events, across a dropped socket that tilt.js opened again (the open before the first frame, and one more).
        #expect(events.count == 30)
        #expect(result["opens"] as? Int == 2, "\(result["opens"] ?? "nil")")
        let hello = result["hello"] as? [String: Any] ?? [:]
        let sensors = hello["sensors"] as? [[String: Any]] ?? []
        let magnetometer = sensors.contains { ($0["kinds"] as? [String] ?? []).contains("magn") }
        for event in events {
            #expect(event["isDeviceOrientationEvent"] as? Bool == true)
            #expect(event["absolute"] as? Bool == magnetometer)
            let alpha = event["alpha"] as? Double ?? .nan, beta = event["beta"] as? Double ?? .nan
            let gamma = event["gamma"] as? Double ?? .nan
            #expect((0..<360).contains(alpha) && (-180..<180).contains(beta) && (-90..<90).contains(gamma))
            let q = event["quaternion"] as? [Double] ?? [1, 0, 0, 0]
            let want = Self.matrix(quaternion: q), got = Self.matrix(alpha: alpha, beta: beta, gamma: gamma)
            let error = zip(want.joined(), got.joined()).map { abs($0 - $1) }.max() ?? .infinity
            #expect(error < 1e-6, "event \(alpha), \(beta), \(gamma) for quaternion \(q)")
        }
        // tilt.status() answers with tiltd's status for this page's own connection, watching at the page's rate.
        let status = result["status"] as? [String: Any] ?? [:]
        let client = status["client"] as? [String: Any] ?? [:]
        #expect(status["class"] as? String == "status")
        #expect(client["watching"] as? Bool == true && client["rate"] as? Double == 30, "\(status)")

        // The example page, which only listens to deviceorientation, moved its card.
        #expect((result["transform"] as? String)?.contains("rotateX") == true)
    }
}
