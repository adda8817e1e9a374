import Testing
import TiltCore
import TiltWire

/// The protocol's vocabulary: every `class` has its message type, and each message's line decodes to the same
/// message. A class added to ``MessageClass`` fails ``everyClassHasAnExample()`` until it has an example here.
@Suite struct MessageClassTests {
    static let frame = AttitudeFrame(
        seq: 7, time: 3.5, quaternion: Quaternion(axis: Vector3(0, 0, 1), angle: 0.5),
        gravity: Vector3(0, 0, -9.75), rotationRate: Vector3(0.5, -0.25, 0), userAcceleration: Vector3(0.125, 0, 0),
        tilt: .init(x: 0.5, y: -0.5),
        flags: .init(initializing: true, rest: false, accelDisturbed: true, magDisturbed: false),
        source: "iio:device0", mono: 1234.5)

    static let status = StatusReport(
        daemon: "tiltd 0.1.0", protocol: 1, uptime: 2, source: "iio:device0", sensor: .active, clients: 3,
        watchers: 2, requestedRate: 120, samples: 4000, rejected: 0, lastRejection: nil, seq: 3999,
        gyroBias: [0.001, 0, 0], calibration: "none", calibrated: false,
        power: WirePower(PowerState(onBattery: false, capacity: nil, profile: "balanced")),
        client: .init(
            id: 9, watching: true, rate: 60, raw: true, sent: 100, dropped: 0, errors: 1, uid: 1000, pid: 4242,
            screenRotation: 180, magnetometer: true),
        filters: [.magnetic], orientation: WireOrientation(.normal, .faceUp))

    /// One message of every class (numbers finite, so that `==` can compare them).
    static let examples: [ServerMessage] = [
        .hello(
            .init(
                protocol: 1, daemon: "tiltd 0.1.0",
                sensors: [
                    WireSensor(
                        SensorDescription(
                            name: "accel_3d", kinds: ["accel", "gyro"], location: "iio:device0", rateHz: 200,
                            mode: "buffered"))
                ],
                power: WirePower(PowerState(onBattery: true, capacity: 80, profile: nil)), sensor: .finished)),
        .attitude(frame),
        .sample(
            MotionSample(time: 0.25, gyro: Vector3(0.5, 0, 0), accel: Vector3(0, 0, 9.75), mag: Vector3(20, 0, -40))),
        .gap(.init(count: 393, first: 21.5, last: 21.9375)),
        .power(PowerState(onBattery: true, capacity: 12, profile: "power-saver")),
        .sensor(.init(state: .lost, reason: "device gone")),
        .orientation(WireOrientation(.rightUp, .tiltedDown)),
        .status(status),
        .tare(reference: Quaternion(axis: Vector3(0, 1, 0), angle: 0.25)),
        .error(message: "unknown command 'jump'; known commands: watch, poll, status, tare"),
    ]

    @Test func everyClassHasAnExample() {
        #expect(Set(Self.examples.map(\.messageClass)) == Set(MessageClass.allCases))
    }

    @Test("each message's line has its class first and decodes to the same message", arguments: examples)
    func roundTrips(_ message: ServerMessage) throws {
        let line = message.jsonLine
        #expect(line.utf8.starts(with: message.messageClass.linePrefix), "\(line)")
        #expect(line.hasPrefix(#"{"class":"\#(message.messageClass.rawValue)","#), "\(line)")
        #expect(try ServerMessage.decode(Array(line.utf8)) == message, "\(line)")
        // The payload's own line is the message's line.
        #expect(message.payload.jsonLine == line)
    }

    /// The lines as protocol v1 has always spelled them (docs/protocol.md): the wire format is a contract.
    @Test func linesAreTheProtocolsSpelling() {
        let lines = Self.examples.map(\.jsonLine)
        #expect(
            lines[0]
                == #"{"class":"hello","protocol":1,"daemon":"tiltd 0.1.0","sensors":[{"name":"accel_3d","#
                + #""kinds":["accel","gyro"],"location":"iio:device0","rate":200.0,"mode":"buffered"}],"#
                + #""power":{"onBattery":true,"capacity":80,"profile":null,"lowPower":false},"sensor":"finished"}"#)
        let q = Self.frame.quaternion.array.map(\.description).joined(separator: ",")
        let e = Self.frame.euler
        #expect(
            lines[1]
                == #"{"class":"attitude","seq":7,"time":3.5,"mono":1234.5,"quaternion":[\#(q)],"#
                + #""euler":{"roll":\#(e.roll),"pitch":\#(e.pitch),"yaw":\#(e.yaw)},"gravity":[0.0,0.0,-9.75],"#
                + #""rotationRate":[0.5,-0.25,0.0],"userAcceleration":[0.125,0.0,0.0],"tilt":[0.5,-0.5],"#
                + #""flags":{"initializing":true,"rest":false,"accelDisturbed":true,"magDisturbed":false},"#
                + #""source":"iio:device0","axes":"device"}"#)
        #expect(
            lines[2] == #"{"class":"sample","t":0.25,"gyr":[0.5,0.0,0.0],"acc":[0.0,0.0,9.75],"mag":[20.0,0.0,-40.0]}"#)
        #expect(
            lines[3] == #"{"class":"gap","count":393,"first":21.5,"last":21.9375}"#)
        #expect(
            lines[4] == #"{"class":"power","onBattery":true,"capacity":12,"profile":"power-saver","lowPower":true}"#)
        #expect(lines[5] == #"{"class":"sensor","state":"lost","reason":"device gone"}"#)
        #expect(lines[6] == #"{"class":"orientation","orientation":"right-up","tilt":"tilted-down"}"#)
        #expect(
            lines[7]
                == #"{"class":"status","calibrated":false,"calibration":"none","client":{"dropped":0,"errors":1,"#
                + #""id":9,"magnetometer":true,"pid":4242,"rate":60.0,"raw":true,"screenRotation":180,"sent":100,"#
                + #""uid":1000,"watching":true},"clients":3,"daemon":"tiltd 0.1.0","filters":["magnetic"],"#
                + #""gyroBias":[0.001,0.0,0.0],"orientation":{"orientation":"normal","tilt":"face-up"},"#
                + #""power":{"lowPower":false,"onBattery":false,"profile":"balanced"},"protocol":1,"rejected":0,"#
                + #""requestedRate":120.0,"samples":4000,"seq":3999,"sensor":"active","source":"iio:device0","#
                + #""uptime":2.0,"watchers":2}"#)
        let r = Quaternion(axis: Vector3(0, 1, 0), angle: 0.25).array.map(\.description).joined(separator: ",")
        #expect(lines[8] == #"{"class":"tare","reference":[\#(r)]}"#)
        #expect(
            lines[9]
                == #"{"class":"error","message":"unknown command 'jump'; known commands: watch, poll, status, tare"}"#)
    }

    @Test func theLinePrefixIsTheClassKey() {
        for messageClass in MessageClass.allCases {
            #expect(messageClass.linePrefix == Array(#"{"class":"\#(messageClass.rawValue)""#.utf8))
        }
    }

    @Test(
        "a malformed line of a known class says what is wrong",
        arguments: [
            (#"{"class":"tare","reference":[1,0,0]}"#, "expected 4 numbers for a quaternion, got 3"),
            (#"{"class":"error"}"#, "cannot decode a message from the daemon"),
            (#"{"class":"status","daemon":"tiltd"}"#, "cannot decode a message from the daemon"),
            (#"{"class":"sample","t":1,"gyr":[0,0],"acc":[0,0,0]}"#, "expected 3 numbers for a vector, got 2"),
            (#"{"x":1}"#, "cannot decode a message from the daemon"),
        ])
    func malformedLinesThrow(_ line: String, _ needle: String) {
        do {
            let message = try ServerMessage.decode(Array(line.utf8))
            Issue.record("decoded \(String(describing: message)) from \(line)")
        } catch {
            #expect(error.message.contains(needle), "\(error.message)")
        }
    }
}
