import Foundation
import NIOCore
import NIOEmbedded
import Testing
import TiltCore
import TiltWire

/// The wire's one JSON convention (non-finite numbers are `null`), its typed vocabulary, and its outbound framing.
@Suite struct WireVocabularyTests {
    private func status(
        uptime: Double = 12.5, gyroBias: [Double] = [0.001, 0, -0.002], sensor: SensorState = .active,
        calibration: String = "/etc/tilt/x.calib: matched", calibrated: Bool = true
    ) -> StatusReport {
        StatusReport(
            daemon: "tiltd 0.1.0", protocol: 1, uptime: uptime, source: "replay:a.csv", sensor: sensor, clients: 2,
            watchers: 1, requestedRate: 60, samples: 100, rejected: 1, lastRejection: "row 3: bad", seq: 99,
            gyroBias: gyroBias, calibration: calibration, calibrated: calibrated,
            power: WirePower(PowerState(onBattery: true, capacity: 40, profile: nil)),
            client: .init(
                id: 3, watching: true, rate: 30, raw: false, sent: 10, dropped: 2, errors: 0, uid: 1000, pid: nil))
    }

    @Test func statusIsWrittenByJSONWriterInKeyOrderWithClassFirst() throws {
        let line = status().jsonLine
        #expect(
            line
                == #"{"class":"status","calibrated":true,"calibration":"/etc/tilt/x.calib: matched","#
                + #""client":{"dropped":2,"errors":0,"id":3,"rate":30.0,"raw":false,"sent":10,"uid":1000,"#
                + #""watching":true},"clients":2,"daemon":"tiltd 0.1.0","gyroBias":[0.001,0.0,-0.002],"#
                + #""lastRejection":"row 3: bad","power":{"capacity":40,"lowPower":false,"onBattery":true},"#
                + #""protocol":1,"rejected":1,"requestedRate":60.0,"samples":100,"seq":99,"sensor":"active","#
                + #""source":"replay:a.csv","uptime":12.5,"watchers":1}"#)
        #expect(try ServerMessage.decode(Array(line.utf8)) == .status(status()))
    }

    @Test("status shows a client's screenRotation and magnetometer choice, and the running filters")
    func statusShowsAxesAndAttitudeChoice() throws {
        var report = status()
        report.client.screenRotation = 90
        report.client.magnetometer = false
        report.filters = [.magnetic, .game]
        let line = report.jsonLine
        #expect(line.contains(#""id":3,"magnetometer":false,"rate":30.0,"raw":false,"screenRotation":90,"#), "\(line)")
        #expect(line.contains(#""daemon":"tiltd 0.1.0","filters":["magnetic","game"],"gyroBias""#), "\(line)")
        #expect(try ServerMessage.decode(Array(line.utf8)) == .status(report))
    }

    @Test func nonFiniteStatusNumbersAreNullAndDecodeAsNaN() throws {
        let line = status(uptime: .infinity, gyroBias: [.nan, 1, -.infinity]).jsonLine
        #expect(line.contains(#""uptime":null"#) && line.contains(#""gyroBias":[null,1.0,null]"#), "\(line)")
        #expect(!line.contains("nan") && !line.contains("inf"))
        guard case .status(let decoded) = try ServerMessage.decode(Array(line.utf8)) else {
            Issue.record("not a status: \(line)")
            return
        }
        #expect(decoded.uptime.isNaN && decoded.gyroBias[0].isNaN && decoded.gyroBias[1] == 1)
    }

    @Test func nonFiniteFrameNumbersAreNullAndDecodeAsNaN() throws {
        let frame = AttitudeFrame(
            seq: 1, time: 2, quaternion: Quaternion(w: .nan, x: 0, y: 0, z: 1), gravity: Vector3(.infinity, 0, 0),
            rotationRate: .zero, userAcceleration: .zero, tilt: .init(x: .nan, y: 0.5), flags: .init(), source: "t")
        let line = ServerMessage.encode(frame: frame)
        #expect(line.contains(#""quaternion":[null,0.0,0.0,1.0]"#) && line.contains(#""tilt":[null,0.5]"#))
        guard case .attitude(let decoded) = try ServerMessage.decode(Array(line.utf8)) else {
            Issue.record("not a frame: \(line)")
            return
        }
        #expect(decoded.quaternion.w.isNaN && decoded.gravity.x.isNaN && decoded.tilt.x.isNaN)
        #expect(decoded.tilt.y == 0.5 && decoded.quaternion.z == 1)
    }

    @Test func sensorStatesKeepTheirRawValuesAndUnknownOnesDecode() throws {
        for state in [SensorState.active, .idle, .lost, .finished] {
            #expect(SensorState(rawValue: state.rawValue) == state)
            #expect("\(state)" == state.rawValue)
        }
        #expect(SensorState.finished.rawValue == "finished")
        let line = #"{"class":"sensor","state":"calibrating","reason":"newer daemon"}"#
        let message = try ServerMessage.decode(Array(line.utf8))
        #expect(message == .sensor(.init(state: .unknown("calibrating"), reason: "newer daemon")))
        #expect(ServerMessage.sensor(.init(state: .unknown("calibrating"), reason: "newer daemon")).jsonLine == line)
        let newer = status(sensor: .unknown("warming")).jsonLine
        guard case .status(let decoded) = try ServerMessage.decode(Array(newer.utf8)) else {
            Issue.record("not a status")
            return
        }
        #expect(decoded.sensor == .unknown("warming"))
    }

    @Test func statusFromAnOlderDaemonReadsCalibratedOffItsText() throws {
        func decoded(dropping key: String, calibration: String) throws -> StatusReport? {
            var object = try #require(
                JSONSerialization.jsonObject(with: Data(status(calibration: calibration).jsonLine.utf8))
                    as? [String: Any])
            object[key] = nil
            let data = try JSONSerialization.data(withJSONObject: object)
            guard case .status(let s) = try ServerMessage.decode(Array(data)) else { return nil }
            return s
        }
        #expect(try decoded(dropping: "calibrated", calibration: "none: no file matched")?.calibrated == false)
        #expect(try decoded(dropping: "calibrated", calibration: "/x.calib: forced")?.calibrated == true)
    }

    @Test func sensorEventLineIsUnchanged() {
        #expect(
            ServerMessage.sensor(.init(state: .finished, reason: "end of a.csv")).jsonLine
                == #"{"class":"sensor","state":"finished","reason":"end of a.csv"}"#)
    }

    @Test func helloLineIsUnchanged() {
        let hello = ServerMessage.hello(
            .init(
                protocol: 1, daemon: "tiltd 0.1.0",
                sensors: [
                    WireSensor(
                        SensorDescription(
                            name: "x", kinds: ["accel", "gyro"], location: "/dev/x", rateHz: nil, mode: "polled"))
                ], power: WirePower(.mains)))
        #expect(
            hello.jsonLine
                == #"{"class":"hello","protocol":1,"daemon":"tiltd 0.1.0","sensors":[{"name":"x","kinds":["accel","gyro"],"#
                + #""location":"/dev/x","rate":null,"mode":"polled"}],"power":{"onBattery":false,"capacity":null,"#
                + #""profile":null,"lowPower":false}}"#)
    }

    @Test func wireLinesAreFramedOnceWithANewline() throws {
        let line = WireLine(.error(message: "bad"))
        #expect(String(buffer: line.bytes) == #"{"class":"error","message":"bad"}"# + "\n")
        #expect(line.json == #"{"class":"error","message":"bad"}"#)
        #expect(String(buffer: WireLine(ClientCommand.poll).bytes) == #"{"cmd":"poll"}"# + "\n")
        #expect(WireLine.nothing.bytes.readableBytes == 0)
    }

    @Test func lineFrameEncoderWritesTheLinesBytes() throws {
        let channel = EmbeddedChannel(handler: LineFrameEncoder())
        try channel.writeOutbound(WireLine(ClientCommand.status))
        try channel.writeOutbound(WireLine.nothing)
        let first = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(String(buffer: first) == #"{"cmd":"status"}"# + "\n")
        #expect(try channel.readOutbound(as: ByteBuffer.self)?.readableBytes == 0)
        _ = try channel.finish()
    }

    @Test func enumsAreWrittenAsTheirRawValues() {
        var w = JSONWriter()
        w.field("state", SensorState.lost)
        w.array("xs", objects: [1, 2]) { $0.field("n", $1) }
        #expect(w.finish() == #"{"state":"lost","xs":[{"n":1},{"n":2}]}"#)
    }
}
