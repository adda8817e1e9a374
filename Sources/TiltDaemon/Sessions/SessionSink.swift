import NIOCore
import TiltWire

/// A socket session as the hub sees it: the ``ClientSink`` that carries lines to one connection.
///
/// `deliver` runs on whatever thread publishes. For a frame it asks the channel whether it takes writes
/// (`isWritable` may be read from any thread) and, if so, hands the line to the session on the connection's event
/// loop; if not, the frame is dropped there and then, so a stalled client costs the daemon nothing and never delays
/// anyone else. Raw samples, gaps and events always go to the session, which writes them or queues them in order
/// (``RawBacklog``, bounded).
struct SessionSink: ClientSink {
    let channel: any Channel
    let session: NIOLoopBound<SessionHandler>

    func deliver(_ line: WireLine, kind: Delivery) -> Bool {
        if case .frame = kind, !channel.isWritable { return false }
        let session = self.session
        channel.eventLoop.execute { session.value.send(line, kind: kind) }
        return true
    }

    func close() async {
        let session = self.session
        try? await channel.eventLoop.submit { session.value.close() }.get()
    }
}
