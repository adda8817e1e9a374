/// The protocol's line-splitting rules, independent of any I/O library: what ``LineFrameDecoder`` does with the
/// bytes of a connection, as a small state machine that the fuzz target can drive directly.
///
/// The caller holds the unread bytes and asks ``next(_:)`` what to do with them; each ``Step`` says how many bytes
/// to consume from the front. A line is the bytes up to a `\n`, without it and without one trailing `\r`. A line
/// longer than `maxLength` (counted before the `\r` is removed) is never buffered whole: it is reported once as
/// ``Step/overlong(length:consumed:)`` and its bytes are dropped up to and including the next newline. So the caller
/// never holds more than `maxLength` bytes plus one read's worth.
///
/// The splitter remembers how far it has already searched for a newline, so a line that arrives a few bytes at a
/// time costs time linear in its length, not quadratic.
public struct LineSplitter: Sendable, Equatable {
    /// What to do with the front of the unread bytes.
    public enum Step: Sendable, Equatable {
        /// A line: its first `length` bytes; then consume `consumed` bytes (the line and its terminator).
        case line(length: Int, consumed: Int)
        /// An over-long line was cut; `length` is how many bytes it had when cut. Consume `consumed` bytes.
        case overlong(length: Int, consumed: Int)
        /// Drop `consumed` bytes silently (the rest of a line already reported as over-long).
        case discard(consumed: Int)
        /// Nothing more can be done until more bytes arrive; consume nothing.
        case needMoreData
    }

    /// The longest line passed on, in bytes.
    public let maxLength: Int
    /// Whether the bytes up to the next newline belong to an over-long line already reported.
    public private(set) var discarding = false
    /// How many of the unread bytes are known to hold no newline.
    private var searched = 0

    public init(maxLength: Int = WireProtocol.maxLineLength) {
        precondition(maxLength >= 0, "maxLength must not be negative")
        self.maxLength = maxLength
    }

    /// The next step for the unread bytes `bytes` (the same bytes as last time, minus those consumed, plus any new).
    ///
    /// Call it again after every step other than ``Step/needMoreData``.
    public mutating func next(_ bytes: some RandomAccessCollection<UInt8>) -> Step {
        let count = bytes.count
        if searched > count { searched = 0 }
        let start = bytes.index(bytes.startIndex, offsetBy: searched)
        if let nl = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let length = bytes.distance(from: bytes.startIndex, to: nl)
            searched = 0
            if discarding {
                discarding = false
                return .discard(consumed: length + 1)
            }
            if length > maxLength { return .overlong(length: length, consumed: length + 1) }
            let last = length > 0 ? bytes[bytes.index(bytes.startIndex, offsetBy: length - 1)] : 0
            let carriageReturn = last == UInt8(ascii: "\r")
            return .line(length: carriageReturn ? length - 1 : length, consumed: length + 1)
        }
        searched = count
        guard count > maxLength else { return .needMoreData }
        searched = 0
        if discarding { return .discard(consumed: count) }
        discarding = true
        return .overlong(length: count, consumed: count)
    }

    /// What to do with the bytes left when the peer has finished sending: a last line without a newline is still a
    /// line (unless it is the tail of an over-long one). Call after ``next(_:)`` has returned ``Step/needMoreData``.
    ///
    /// - Returns: `nil` when nothing is left.
    public mutating func finish(_ bytes: some RandomAccessCollection<UInt8>) -> Step? {
        let count = bytes.count
        searched = 0
        guard count > 0 else { return nil }
        if discarding {
            discarding = false
            return .discard(consumed: count)
        }
        let carriageReturn = bytes[bytes.index(bytes.startIndex, offsetBy: count - 1)] == UInt8(ascii: "\r")
        return .line(length: carriageReturn ? count - 1 : count, consumed: count)
    }
}
