/// The back-pressure and half-close part of a session: when to stop reading, when to give up on a client, and
/// when a half-closed session has nothing left to do.
///
/// Answers are always written (never dropped like frames), so a client that sends commands but does not read its
/// answers would make them pile up in the daemon without bound. Instead the session stops reading from a client
/// while its channel is unwritable and reads again once it drains: the client's own sends then block, and the
/// daemon's memory for it stays bounded by a read's worth of answers and by ``maxPendingReplies``.
///
/// A client that shuts down its sending side still has its last line answered; after that the session stays open
/// only while the client is owed frames (it watches, or a `poll` waits).
struct SessionFlow: Sendable {
    /// Replies that may wait while the client does not read, before it is closed.
    static let maxPendingReplies = 256

    /// Turned away, flooding, or being closed: read and answer nothing more.
    private(set) var closing = false
    /// The client has shut down its sending side.
    private(set) var inputClosed = false
    private var pendingReplies = 0

    /// What to do with a reply.
    enum ReplyVerdict: Sendable, Equatable {
        case write
        /// The client let too many replies pile up unread: close it (once).
        case closeSlowReader(pending: Int)
        /// Closing already: send nothing.
        case drop
    }

    /// The verdict on a reply, given whether the channel takes writes now.
    mutating func reply(writable: Bool) -> ReplyVerdict {
        guard !writable else { return .write }
        pendingReplies += 1
        guard pendingReplies > Self.maxPendingReplies else { return .write }
        if closing { return .drop }
        closing = true
        return .closeSlowReader(pending: pendingReplies)
    }

    /// Whether to read from the client: only while what is written to it drains.
    mutating func shouldRead(writable: Bool) -> Bool {
        if writable { pendingReplies = 0 }
        return writable
    }

    /// From now on the session takes no commands (it is turning the client away or closing it).
    mutating func close() {
        closing = true
    }

    /// The client half-closed.
    mutating func endOfInput() {
        inputClosed = true
    }

    /// Whether a half-closed session is done, given whether the client is still owed frames.
    func isDone(owedFrames: @autoclosure () -> Bool) -> Bool {
        inputClosed && !owedFrames()
    }
}
