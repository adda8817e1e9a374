import NIOCore
import TiltWire

/// A socket session as the hub sees it: the ``Subscriber`` that carries lines to one connection.
///
/// `deliver` runs on whatever thread publishes. It asks the channel whether it takes writes (`isWritable` may be
/// read from any thread) and, if so, hands the line to the session on the connection's event loop; if not, the
/// line is dropped there and then, so a stalled client costs the daemon nothing and never delays anyone else.
struct SessionSink: Subscriber {
    let channel: any Channel
    let session: NIOLoopBound<SessionHandler>

    func deliver(_ line: WireLine, kind: Delivery) -> Bool {
        guard channel.isWritable else { return false }
        let session = self.session
        channel.eventLoop.execute { session.value.send(line, kind: kind) }
        return true
    }

    func close() async {
        let session = self.session
        try? await channel.eventLoop.submit { session.value.close() }.get()
    }
}
