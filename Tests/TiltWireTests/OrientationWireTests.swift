import Foundation
import Testing
import TiltCore
import TiltWire

/// The `orientation` event and `status.orientation` (issue 16).
@Suite struct OrientationWireTests {
    @Test func orientationEventIsTheIssuesLineAndRoundTrips() throws {
        let message = ServerMessage.orientation(WireOrientation(.leftUp, .vertical))
        #expect(message.jsonLine == #"{"class":"orientation","orientation":"left-up","tilt":"vertical"}"#)
        #expect(try ServerMessage.decode(Array(message.jsonLine.utf8)) == message)
    }

    @Test("every orientation and tilt round-trips", arguments: DeviceOrientation.allCases)
    func everyValueRoundTrips(_ orientation: DeviceOrientation) throws {
        for tilt in DeviceTilt.allCases {
            let message = ServerMessage.orientation(WireOrientation(orientation, tilt))
            #expect(try ServerMessage.decode(Array(message.jsonLine.utf8)) == message)
        }
    }

    @Test func aValueThisVersionDoesNotKnowIsKeptAsText() throws {
        let line = #"{"class":"orientation","orientation":"sideways","tilt":"spinning"}"#
        #expect(
            try ServerMessage.decode(Array(line.utf8)) == .orientation(.init(orientation: "sideways", tilt: "spinning"))
        )
    }

    private func status(orientation: WireOrientation?) -> StatusReport {
        StatusReport(
            daemon: "tiltd 0.1.0", protocol: 1, uptime: 1, source: "replay:a.csv", sensor: .active, clients: 1,
            watchers: 0, requestedRate: nil, samples: 5, rejected: 0, lastRejection: nil, seq: 4, gyroBias: [0, 0, 0],
            calibration: "none", calibrated: false, power: WirePower(.mains),
            client: .init(
                id: 1, watching: false, rate: nil, raw: false, sent: 0, dropped: 0, errors: 0, uid: nil, pid: nil),
            orientation: orientation)
    }

    @Test func statusCarriesTheOrientationInKeyOrder() throws {
        let report = status(orientation: WireOrientation(.bottomUp, .tiltedUp))
        let line = report.jsonLine
        #expect(
            line.contains(
                #""gyroBias":[0.0,0.0,0.0],"orientation":{"orientation":"bottom-up","tilt":"tilted-up"},"power":"#),
            "\(line)")
        #expect(try ServerMessage.decode(Array(line.utf8)) == .status(report))
    }

    @Test func statusFromAnOlderDaemonHasNoOrientation() throws {
        let line = status(orientation: nil).jsonLine
        #expect(!line.contains("orientation"))
        guard case .status(let decoded) = try ServerMessage.decode(Array(line.utf8)) else {
            Issue.record("not a status: \(line)")
            return
        }
        #expect(decoded.orientation == nil)
    }
}
