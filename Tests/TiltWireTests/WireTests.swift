import Foundation
import NIOCore
import NIOEmbedded
import Testing
import TiltCore
import TiltWire

@Suite struct WireTests {
    @Test(arguments: [
        (#"{"cmd":"watch","rate":30}"#, ClientCommand.watch(enable: true, rate: 30, raw: false)),
        (#"{"cmd":"watch"}"#, .watch(enable: true, rate: nil, raw: false)),
        (#"{"cmd":"watch","enable":false}"#, .watch(enable: false, rate: nil, raw: false)),
        (#"{"cmd":"watch","rate":100,"raw":true,"extra":[1]}"#, .watch(enable: true, rate: 100, raw: true)),
        (#"{ "cmd" : "poll" }"#, .poll), (#"{"cmd":"status"}"#, .status), (#"{"cmd":"tare"}"#, .tare),
        (#"{"cmd":"tare","reset":false}"#, .tare), (#"{"cmd":"tare","reset":true}"#, .resetTare),
        (#"{"cmd":"watch","screenRotation":90}"#, .watch(enable: true, rate: nil, raw: false, screenRotation: .left)),
        (#"{"cmd":"watch","screenRotation":0}"#, .watch(enable: true, rate: nil, raw: false)),
        (
            #"{"cmd":"watch","rate":30,"screenRotation":270.0,"magnetometer":false}"#,
            .watch(enable: true, rate: 30, raw: false, screenRotation: .right, magnetometer: false)
        ),
        (#"{"cmd":"watch","magnetometer":true}"#, .watch(enable: true, rate: nil, raw: false, magnetometer: true)),
        (#"{"cmd":"watch","predict":0.03}"#, .watch(enable: true, rate: nil, raw: false, predict: 0.03)),
        (#"{"cmd":"watch","predict":0}"#, .watch(enable: true, rate: nil, raw: false)),
        (#"{"cmd":"watch","predict":0.1}"#, .watch(enable: true, rate: nil, raw: false, predict: 0.1)),
        // Whole milliseconds.
        (#"{"cmd":"watch","predict":0.0304}"#, .watch(enable: true, rate: nil, raw: false, predict: 0.03)),
    ])
    func decodesCommands(_ line: String, _ expected: ClientCommand) throws {
        #expect(try ClientCommand.decode(Array(line.utf8)) == expected)
        // And what we encode decodes to the same.
        #expect(try ClientCommand.decode(Array(expected.jsonLine.utf8)) == expected)
    }

    @Test(arguments: [
        ("", WireError.Kind.notAnObject, "not a JSON object"), ("nonsense", .notAnObject, "not a JSON object"),
        ("[]", .notAnObject, "not a JSON object"), (#"{"rate":3}"#, .missingCommand, "missing \"cmd\""),
        (#"{"cmd":"jump"}"#, .unknownCommand("jump"), "unknown command 'jump'"),
        (#"{"cmd":"watch","rate":0}"#, .badValue(field: "rate"), "positive"),
        (#"{"cmd":"watch","rate":"fast"}"#, .wrongType(field: "rate"), "wrong type"),
        (#"{"cmd":7}"#, .wrongType(field: "cmd"), "wrong type"),
        (#"{"cmd":"tare","reset":"yes"}"#, .wrongType(field: "reset"), "'reset' has the wrong type"),
        (
            #"{"cmd":"watch","screenRotation":45}"#, .badValue(field: "screenRotation"),
            "'screenRotation' must be 0, 90, 180 or 270"
        ),
        (#"{"cmd":"watch","screenRotation":-90}"#, .badValue(field: "screenRotation"), "not -90"),
        (
            #"{"cmd":"watch","screenRotation":"left"}"#, .wrongType(field: "screenRotation"),
            "'screenRotation' has the wrong type"
        ),
        (#"{"cmd":"watch","magnetometer":1}"#, .wrongType(field: "magnetometer"), "'magnetometer' has the wrong type"),
        (#"{"cmd":"watch","predict":0.5}"#, .badValue(field: "predict"), "'predict' must be from 0 to 0.1 seconds"),
        (#"{"cmd":"watch","predict":-0.01}"#, .badValue(field: "predict"), "not -0.01"),
        (#"{"cmd":"watch","predict":"auto"}"#, .wrongType(field: "predict"), "'predict' has the wrong type"),
    ])
    func refusesBadLines(_ line: String, _ kind: WireError.Kind, _ needle: String) {
        do {
            _ = try ClientCommand.decode(Array(line.utf8))
            Issue.record("accepted \(line)")
        } catch {
            #expect(error.kind == kind, "\(error.message)")
            #expect(error.message.contains(needle), "\(error.message)")
        }
    }

    @Test func refusesOverlongLines() {
        let line = [UInt8](repeating: UInt8(ascii: " "), count: WireProtocol.maxLineLength + 1)
        #expect { try ClientCommand.decode(line) } throws: { ($0 as? WireError)?.kind == .lineTooLong }
    }

    private let frame = AttitudeFrame(
        seq: 42, time: 12.5, quaternion: Quaternion(axis: Vector3(1, 2, 3), angle: 0.4),
        gravity: Vector3(0.1, -0.2, -9.8), rotationRate: Vector3(0.01, 0.02, -0.03),
        userAcceleration: Vector3(0.5, 0, -0.25), tilt: .init(x: 0.125, y: -0.25),
        flags: .init(initializing: false, rest: true, accelDisturbed: false, magDisturbed: true),
        source: "replay:\"odd\" name")

    @Test func frameEncodingIsValidJSONAndRoundTrips() throws {
        let line = ServerMessage.encode(frame: frame)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["class"] as? String == "attitude")
        let euler = try #require(object["euler"] as? [String: Double])
        #expect(Set(euler.keys) == ["roll", "pitch", "yaw"])
        #expect(try ServerMessage.decode(Array(line.utf8)) == .attitude(frame))
    }

    @Test("a frame's heading accuracy (degrees) comes back; a frame without one has no such field")
    func frameHeadingAccuracyRoundTrips() throws {
        var accurate = frame
        accurate.headingAccuracy = 3.25
        let line = ServerMessage.encode(frame: accurate)
        #expect(line.contains(#""headingAccuracy":3.25"#))
        #expect(try ServerMessage.decode(Array(line.utf8)) == .attitude(accurate))
        #expect(!ServerMessage.encode(frame: frame).contains("headingAccuracy"))
        let decoded = try ServerMessage.decode(Array(ServerMessage.encode(frame: frame).utf8))
        guard case .attitude(let plain) = decoded else {
            Issue.record("not an attitude frame: \(String(describing: decoded))")
            return
        }
        #expect(plain.headingAccuracy == nil)
    }

    @Test("a predicted frame says how far ahead, and it comes back; a frame as fused has no such field")
    func framePredictionRoundTrips() throws {
        var ahead = frame
        ahead.predicted = 0.03
        let line = ServerMessage.encode(frame: ahead)
        #expect(line.contains(#""predicted":0.03"#))
        #expect(try ServerMessage.decode(Array(line.utf8)) == .attitude(ahead))
        #expect(!ServerMessage.encode(frame: frame).contains("predicted"))
    }

    @Test("a frame says its axes and attitude, and both come back")
    func frameAxesAndReferenceRoundTrip() throws {
        #expect(ServerMessage.encode(frame: frame).contains(#""source":"replay:\"odd\" name","axes":"device"}"#))
        for rotation in ScreenRotation.allCases {
            for reference in [AttitudeReference.magnetic, .game] {
                var turned = rotation.picture(frame)
                turned.reference = reference
                let line = ServerMessage.encode(frame: turned)
                #expect(
                    line.contains(#""axes":"\#(rotation.axesName)","reference":"\#(reference.rawValue)""#), "\(line)")
                #expect(try ServerMessage.decode(Array(line.utf8)) == .attitude(turned))
            }
        }
        // A frame from an older daemon has neither: device axes, reference unknown.
        let old = #"{"class":"attitude","seq":1,"time":0,"quaternion":[1,0,0,0],"tilt":[0,0]}"#
        guard case .attitude(let decoded) = try ServerMessage.decode(Array(old.utf8)) else {
            Issue.record("no frame")
            return
        }
        #expect(decoded.axes == .normal && decoded.reference == nil)
        #expect {
            try ServerMessage.decode(Array(old.replacingOccurrences(of: "}", with: #","axes":"sideways"}"#).utf8))
        } throws: {
            ($0 as? WireError)?.kind == .malformedMessage
        }
    }

    @Test func otherMessagesRoundTrip() throws {
        let messages: [ServerMessage] = [
            .power(PowerState(onBattery: true, capacity: 43, profile: "power-saver")),
            .power(.mains),
            .sensor(.init(state: .lost, reason: "device gone")),
            .tare(reference: Quaternion(axis: .unitX, angle: 0.1)),
            .error(message: "bad \"line\"\n"),
            .sample(MotionSample(time: 1, gyro: Vector3(1, 2, 3), accel: Vector3(4, 5, 6), mag: nil)),
            .hello(
                .init(
                    protocol: 1, daemon: "tiltd 0.1.0",
                    sensors: [
                        WireSensor(
                            SensorDescription(
                                name: "x", kinds: ["accel"], location: "/dev/x", rateHz: nil, mode: "polled"))
                    ], power: WirePower(.mains))),
        ]
        for m in messages {
            #expect(try ServerMessage.decode(Array(m.jsonLine.utf8)) == m, "\(m.jsonLine)")
        }
    }

    @Test func powerLineMatchesTheDesignExample() throws {
        let line = ServerMessage.power(PowerState(onBattery: true, capacity: 43, profile: "power-saver")).jsonLine
        #expect(line == #"{"class":"power","onBattery":true,"capacity":43,"profile":"power-saver","lowPower":true}"#)
    }

    @Test func unknownClassesAreIgnoredNotErrors() throws {
        #expect(try ServerMessage.decode(Array(#"{"class":"future","x":1}"#.utf8)) == nil)
        #expect { try ServerMessage.decode(Array("junk".utf8)) } throws: {
            ($0 as? WireError)?.kind == .malformedMessage
        }
    }

    @Test func nonFiniteNumbersBecomeNull() {
        var w = JSONWriter()
        w.field("a", Double.nan)
        w.field("b", [1.5, .infinity])
        #expect(w.finish() == #"{"a":null,"b":[1.5,null]}"#)
    }

    @Test func lineDecoderSplitsCapsAndRecovers() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(LineFrameDecoder(maxLength: 16)))
        var buffer = channel.allocator.buffer(capacity: 128)
        buffer.writeString("one\r\ntw")
        try channel.writeInbound(buffer)
        buffer.clear()
        buffer.writeString("o\n" + String(repeating: "x", count: 40))
        try channel.writeInbound(buffer)
        buffer.clear()
        buffer.writeString(String(repeating: "y", count: 40) + "\nthree\nlast")
        try channel.writeInbound(buffer)
        var lines: [String] = []
        var overlong = 0
        while let event = try channel.readInbound(as: LineEvent.self) {
            switch event {
            case .line(let b): lines.append(String(buffer: b))
            case .overlong: overlong += 1
            }
        }
        #expect(lines == ["one", "two", "three"])
        #expect(overlong == 1, "an over-long line is reported once")
        _ = try channel.finish()
    }

    @Test func socketPathResolution() {
        #expect(SocketPath.resolve("/x.sock", environment: ["TILTD_SOCKET": "/y"]) == "/x.sock")
        #expect(SocketPath.resolve(nil, environment: ["TILTD_SOCKET": "/y", "XDG_RUNTIME_DIR": "/run/user/1"]) == "/y")
        #expect(SocketPath.resolve(nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1"]) == "/run/user/1/tiltd.sock")
    }

    @Test func clientsFallBackToTheSystemSocketOnlyWhenNothingNamesOne() {
        let user = ["XDG_RUNTIME_DIR": "/run/user/1"]
        let onlySystem: (String) -> Bool = { $0 == SocketPath.system }
        #expect(SocketPath.resolveForClient(nil, environment: user, isSocket: onlySystem) == SocketPath.system)
        #expect(
            SocketPath.resolveForClient(nil, environment: user, isSocket: { _ in true }) == "/run/user/1/tiltd.sock")
        #expect(
            SocketPath.resolveForClient(nil, environment: user, isSocket: { _ in false }) == "/run/user/1/tiltd.sock")
        #expect(
            SocketPath.resolveForClient(nil, environment: ["TILTD_SOCKET": "/y"], isSocket: onlySystem) == "/y")
        #expect(SocketPath.resolveForClient("/x.sock", environment: user, isSocket: onlySystem) == "/x.sock")
    }
}
