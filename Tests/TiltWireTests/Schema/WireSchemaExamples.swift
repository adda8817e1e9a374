import TiltCore
import TiltWire

/// Each server message and client command twice, as the schema is made from them (``WireSchema``): `full` with
/// every optional field set, so each field the writer can write is seen, and `minimal` with none, so what is always
/// written is known. ``ProtocolSchemaTests`` checks with `Mirror` that no optional of a full example is left unset:
/// a field added to a message without its place here fails there.
enum WireSchemaExamples {
    static let power = WirePower(PowerState(onBattery: true, capacity: 64, profile: "power-saver"))
    static let unknownPower = WirePower(PowerState(onBattery: false, capacity: nil, profile: nil))

    static var fullFrame: AttitudeFrame {
        var frame = AttitudeFrame(
            seq: 7, time: 3.5, quaternion: Quaternion(axis: Vector3(0, 0, 1), angle: 0.5),
            gravity: Vector3(0, 0, -9.75), rotationRate: Vector3(0.5, -0.25, 0), userAcceleration: Vector3(0.125, 0, 0),
            tilt: .init(x: 0.5, y: -0.5),
            flags: .init(initializing: false, rest: true, accelDisturbed: false, magDisturbed: false),
            source: "iio:device0", mono: 1234.5)
        frame.axes = .left
        frame.reference = .magnetic
        frame.headingAccuracy = 0.2
        frame.predicted = 0.03
        return frame
    }

    static var minimalFrame: AttitudeFrame {
        AttitudeFrame(
            seq: 0, time: 0, quaternion: Quaternion(axis: Vector3(0, 0, 1), angle: 0), gravity: Vector3(0, 0, -9.8),
            rotationRate: Vector3(0, 0, 0), userAcceleration: Vector3(0, 0, 0), tilt: .init(x: 0, y: 0),
            flags: .init(initializing: true, rest: false, accelDisturbed: false, magDisturbed: false), source: "replay")
    }

    static var fullStatus: StatusReport {
        var client = StatusReport.Client(
            id: 9, watching: true, rate: 60, raw: true, sent: 100, dropped: 1, errors: 1, uid: 1000, pid: 4242,
            screenRotation: 90, magnetometer: true)
        client.predict = 0.03
        var status = StatusReport(
            daemon: "tiltd 0.1.0", protocol: 1, uptime: 2.5, source: "iio:device0", sensor: .active, clients: 3,
            watchers: 2, requestedRate: 120, samples: 4000, rejected: 2, lastRejection: "accel saturated", seq: 3999,
            gyroBias: [0.001, 0, 0], calibration: "/etc/tilt/calibration/bmi160.conf", calibrated: true, power: power,
            client: client,
            filters: [.magnetic, .game], orientation: WireOrientation(.normal, .faceUp))
        status.sensorMode = "buffered"
        status.busy = WireBusy(
            SensorBusy(
                device: "iio:device0", node: "/dev/iio:device0", holder: "iio-sensor-proxy", holderPID: 812,
                rateHz: 200, retryAt: 12),
            now: 10)
        status.dsu = WireDSU(
            listen: "127.0.0.1:26760", subscribers: 1, sent: 500, received: 20, dropped: ["rate": 3, "full": 1])
        return status
    }

    static var minimalStatus: StatusReport {
        StatusReport(
            daemon: "tiltd 0.1.0", protocol: 1, uptime: 0, source: "replay", sensor: .idle, clients: 1, watchers: 0,
            requestedRate: nil, samples: 0, rejected: 0, lastRejection: nil, seq: nil, gyroBias: [0, 0, 0],
            calibration: "none", calibrated: false, power: unknownPower,
            client: .init(
                id: 1, watching: false, rate: nil, raw: false, sent: 0, dropped: 0, errors: 0, uid: nil, pid: nil))
    }

    static var fullHello: ServerMessage.Hello {
        ServerMessage.Hello(
            protocol: 1, daemon: "tiltd 0.1.0",
            sensors: [
                WireSensor(
                    SensorDescription(
                        name: "bmi160", kinds: [.accelerometer, .gyroscope], location: "iio:device0", rateHz: 200,
                        mode: "buffered"))
            ], power: power, sensor: .active)
    }

    /// Every message class, each with its examples (full first).
    static var messages: [(name: String, lines: [String])] {
        let groups: [(MessageClass, [ServerMessage])] = [
            (
                .hello,
                [
                    .hello(fullHello),
                    .hello(.init(protocol: 1, daemon: "tiltd 0.1.0", sensors: [], power: unknownPower)),
                ]
            ),
            (.attitude, [.attitude(fullFrame), .attitude(minimalFrame)]),
            (
                .sample,
                [
                    .sample(
                        MotionSample(
                            time: 0.25, gyro: Vector3(0.5, 0, 0), accel: Vector3(0, 0, 9.75),
                            mag: Vector3(20, 0, -40))),
                    .sample(MotionSample(time: 0.25, gyro: Vector3(0, 0, 0), accel: Vector3(0, 0, 9.8), mag: nil)),
                ]
            ),
            (.gap, [.gap(.init(count: 393, first: 21.5, last: 21.9375))]),
            (
                .power,
                [.power(PowerState(onBattery: true, capacity: 12, profile: "power-saver")), .power(PowerState())]
            ),
            (.sensor, [.sensor(.init(state: .lost, reason: "device gone"))]),
            (.orientation, [.orientation(WireOrientation(.rightUp, .tiltedDown))]),
            (.status, [.status(fullStatus), .status(minimalStatus)]),
            (.tare, [.tare(reference: Quaternion(axis: Vector3(0, 1, 0), angle: 0.25))]),
            (.error, [.error(message: "unknown command 'jump'; known commands: watch, poll, status, tare")]),
        ]
        return groups.map { ($0.0.rawValue, $0.1.map(\.jsonLine)) }
    }

    /// Every command, each with its forms (full first).
    static var commands: [(name: String, lines: [String])] {
        [
            (
                "watch",
                [
                    ClientCommand.watch(
                        enable: false, rate: 30, raw: true, screenRotation: .left, magnetometer: true, predict: 0.03),
                    .watch(enable: true, rate: nil, raw: false),
                ].map(\.jsonLine)
            ),
            ("poll", [ClientCommand.poll.jsonLine]),
            ("status", [ClientCommand.status.jsonLine]),
            ("tare", [ClientCommand.resetTare.jsonLine, ClientCommand.tare.jsonLine]),
        ]
    }

    /// The full examples, for the check that none leaves an optional unset.
    static var fullValues: [(name: String, value: Any)] {
        [
            ("hello", fullHello), ("attitude", fullFrame), ("status", fullStatus),
            ("sample", MotionSample(time: 0, gyro: Vector3(0, 0, 0), accel: Vector3(0, 0, 0), mag: Vector3(0, 0, 0))),
        ]
    }
}
