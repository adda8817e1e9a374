import Testing
import TiltClient
import TiltCore
import TiltWire

/// What a raw-sample subscription keeps, and when it reports a failure.
@Suite
struct RawSampleBufferTests {
    static func sample(_ t: Double) -> TiltSubscriber.Event {
        .message(.sample(MotionSample(time: t, gyro: .zero, accel: Vector3(0, 0, standardGravity))))
    }

    /// A `sensor` event as the daemon sends it.
    static func sensor(_ state: String, _ reason: String) throws -> TiltSubscriber.Event {
        let line = #"{"class":"sensor","state":"\#(state)","reason":"\#(reason)"}"#
        guard case .sensor(let event) = try #require(try ServerMessage.decode(Array(line.utf8))) else {
            throw TiltClientError(.refused, "not a sensor event: \(line)")
        }
        return .message(.sensor(event))
    }

    /// Feeds `events` in order; returns whether the buffer wanted more after each.
    static func feed(_ buffer: inout RawSampleBuffer, _ events: [TiltSubscriber.Event]) -> [Bool] {
        events.map { buffer.take($0) }
    }

    @Test("samples accumulate until a restart; the span is first to last in sensor time")
    func accumulateAndRestart() throws {
        var buffer = RawSampleBuffer()
        #expect(Self.feed(&buffer, [10.0, 10.5, 11.25].map(Self.sample)) == [true, true, true])
        #expect(try buffer.snapshot().count == 3)
        #expect(buffer.span == 1.25)
        buffer.restart()
        #expect(try buffer.snapshot().isEmpty)
        #expect(buffer.span == 0)
        #expect(RawSampleBuffer.span(of: []) == 0)
    }

    @Test("a sensor that stops is reported once the samples run out; an active one is not")
    func sensorStops() throws {
        var buffer = RawSampleBuffer()
        #expect(Self.feed(&buffer, [try Self.sensor("active", "started")]) == [true])
        #expect(buffer.failure == nil)
        #expect(Self.feed(&buffer, [Self.sample(1), try Self.sensor("lost", "the device went away")]) == [true, true])
        // The samples that came before are still usable.
        #expect(try buffer.snapshot().count == 1)
        buffer.restart()
        #expect(try buffer.snapshot().isEmpty, "a restart forgets the failure while the stream goes on")
        #expect(Self.feed(&buffer, [try Self.sensor("finished", "end of log")]) == [true])
        #expect(throws: TiltClientError(.sensorStopped, "the sensor is finished: end of log")) {
            _ = try buffer.snapshot()
        }
    }

    @Test("a disconnection ends the stream, keeps the first failure, and survives a restart")
    func disconnection() throws {
        var buffer = RawSampleBuffer()
        let wanted = Self.feed(&buffer, [Self.sample(1), .disconnected(reason: "the daemon closed the connection")])
        #expect(wanted == [true, false])
        #expect(buffer.ended)
        let failure = TiltClientError(.connectionClosed, "tiltd went away: the daemon closed the connection")
        #expect(throws: failure) { _ = try buffer.snapshot() }
        buffer.restart()
        #expect(throws: failure) { _ = try buffer.snapshot() }
    }
}
