import Testing
import TiltCore
import TiltWire

/// The pure line-splitting rules behind `LineFrameDecoder` (also driven by the ProtocolDecoder fuzz target).
@Suite struct LineSplitterTests {
    /// Feeds `input` in reads of `read` bytes and returns lines as text and over-long lines as "<overlong>".
    private func split(_ input: String, maxLength: Int, read: Int) -> [String] {
        var splitter = LineSplitter(maxLength: maxLength)
        let bytes = Array(input.utf8)
        var pending: [UInt8] = []
        var out: [String] = []
        func apply(_ step: LineSplitter.Step) {
            switch step {
            case .line(let length, let consumed):
                out.append(String(decoding: pending[..<length], as: UTF8.self))
                pending.removeFirst(consumed)
            case .overlong(_, let consumed):
                out.append("<overlong>")
                pending.removeFirst(consumed)
            case .discard(let consumed):
                pending.removeFirst(consumed)
            case .needMoreData:
                break
            }
        }
        var offset = 0
        while offset < bytes.count {
            pending += bytes[offset..<min(bytes.count, offset + read)]
            offset += read
            while case let step = splitter.next(pending), step != .needMoreData { apply(step) }
        }
        if let last = splitter.finish(pending) { apply(last) }
        return out
    }

    @Test(arguments: [1, 2, 3, 5, 8, 1000])
    func splitsAndCapsWhateverTheReadSize(read: Int) {
        let input = "one\r\n\ntwo\n" + String(repeating: "x", count: 30) + "\nthree\n0123456789\n01234567890\nlast\r"
        #expect(
            split(input, maxLength: 10, read: read)
                == ["one", "", "two", "<overlong>", "three", "0123456789", "<overlong>", "last"])
    }

    @Test func anOverlongTailAtTheEndIsDroppedNotPassedOn() {
        #expect(split("ok\n" + String(repeating: "y", count: 20), maxLength: 8, read: 4) == ["ok", "<overlong>"])
    }

    @Test func aCarriageReturnCountsTowardsTheLimit() {
        #expect(split("abcd\r\nabc\r\n", maxLength: 4, read: 100) == ["<overlong>", "abc"])
    }

    @Test func frameMonoTimeRoundTripsAndIsOptional() throws {
        var frame = AttitudeFrame(
            seq: 7, time: 1.25, quaternion: .identity, gravity: Vector3(0, 0, -9.8), rotationRate: .zero,
            userAcceleration: .zero, tilt: .zero, flags: .init(), source: "test")
        #expect(!ServerMessage.encode(frame: frame).contains("mono"))
        #expect(try ServerMessage.decode(Array(ServerMessage.encode(frame: frame).utf8)) == .attitude(frame))
        frame.mono = 12345.678901234
        let line = ServerMessage.encode(frame: frame)
        #expect(line.contains(#""time":1.25,"mono":12345.678901234,"#))
        #expect(try ServerMessage.decode(Array(line.utf8)) == .attitude(frame))
    }
}
