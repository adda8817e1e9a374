import Synchronization
import Testing
import TiltCore
import TiltWire

@testable import TiltDaemon

/// The parts a socket session is made of, each tested without a channel.
@Suite struct SessionPartsTests {
    @Test func theLimiterRefusesOverTheRateAndDisconnectsAFlood() {
        let policy = ServicePolicy(commandsPerSecond: 5)
        var limiter = CommandLimiter(policy: policy)
        for _ in 0..<10 {
            let verdict = limiter.admit(policy: policy, at: 10)
            #expect(verdict == .run, "a full bucket takes a burst")
        }
        guard case .refuse(let message, true) = limiter.admit(policy: policy, at: 10) else {
            Issue.record("the 11th command at once is not refused as the first of a run")
            return
        }
        #expect(message.contains("more than 5 commands per second (burst 10)"))
        guard case .refuse(_, false) = limiter.admit(policy: policy, at: 10) else {
            Issue.record("the next refusal is not part of the same run")
            return
        }
        var verdict = CommandLimiter.Verdict.run
        for _ in 0..<(policy.floodLimit - 1) { verdict = limiter.admit(policy: policy, at: 10) }
        #expect(
            verdict
                == .disconnect(
                    message: "rate limit: \(policy.floodLimit + 1) commands in a row over 5 per second; disconnecting",
                    refusedInARow: policy.floodLimit + 1))
        let later = limiter.admit(policy: policy, at: 11)
        #expect(later == .run, "after a second the bucket has tokens again")
    }

    @Test func noRateMeansNoLimit() {
        let off = ServicePolicy(commandsPerSecond: 0)
        var limiter = CommandLimiter(policy: off)
        let verdicts = (0..<1000).map { _ in limiter.admit(policy: off, at: 1) }
        #expect(verdicts.allSatisfy { $0 == .run })
        #expect(CommandLimiter.format(20) == "20" && CommandLimiter.format(2.5) == "2.5")
    }

    @Test func theFlowHoldsRepliesUntilTooManyPileUp() {
        var flow = SessionFlow()
        var verdicts = [flow.reply(writable: true)]
        for _ in 0..<SessionFlow.maxPendingReplies { verdicts.append(flow.reply(writable: false)) }
        #expect(verdicts.allSatisfy { $0 == .write })
        let over = flow.reply(writable: false)
        #expect(over == .closeSlowReader(pending: SessionFlow.maxPendingReplies + 1))
        #expect(flow.closing)
        let after = flow.reply(writable: false)
        #expect(after == .drop)
    }

    @Test func theFlowForgetsPendingRepliesOnceTheClientDrains() {
        var flow = SessionFlow()
        for _ in 0..<SessionFlow.maxPendingReplies { _ = flow.reply(writable: false) }
        let stalled = flow.shouldRead(writable: false)
        let drained = flow.shouldRead(writable: true)
        #expect(!stalled && drained)
        let next = flow.reply(writable: false)
        #expect(next == .write, "the count starts again after the client drained")
    }

    @Test func aHalfClosedFlowIsDoneOnlyWhenNoFramesAreOwed() {
        var flow = SessionFlow()
        #expect(!flow.isDone(owedFrames: false), "still reading commands")
        flow.endOfInput()
        #expect(!flow.isDone(owedFrames: true), "a watcher or a waiting poll keeps it open")
        #expect(flow.isDone(owedFrames: false))
    }

    @Test func theAuthorityLooksGroupsUpOnceAndOnlyWhenNeeded() {
        let lookups = Atomic<Int>(0)
        let admin = UnixGroup(name: "tilt-admin", gid: 4242)
        let settings = DaemonSettings(policy: ServicePolicy(adminGroup: admin), daemonUID: 500)
        var authority = CommandAuthority { _ in
            lookups.add(1, ordering: .relaxed)
            return [4242]
        }
        let unknown = authority.refusal(of: "tare", settings: settings)
        #expect(unknown?.contains("no SO_PEERCRED") == true)
        authority.peer = PeerCredentials(uid: 500, gid: 500, pid: 1)
        let owner = authority.refusal(of: "tare", settings: settings)
        #expect(owner == nil)
        #expect(lookups.load(ordering: .relaxed) == 0, "the daemon's own uid needs no group lookup")
        authority.peer = PeerCredentials(uid: 1000, gid: 1000, pid: 2)
        let member = [
            authority.refusal(of: "tare", settings: settings), authority.refusal(of: "tare", settings: settings),
        ]
        #expect(member == [nil, nil])
        #expect(lookups.load(ordering: .relaxed) == 1)
        #expect(authority.uid == "1000" && authority.pid == "2")
    }

    @Test func theDispatcherMapsCommandsToAnswers() throws {
        let hub = Hub(sourceName: "replay:x", sensors: [], calibration: "none: test", calibrated: false)
        let settings = DaemonSettings(policy: ServicePolicy(), daemonUID: 500)
        let dispatcher = CommandDispatcher(hub: hub, settings: settings)
        final class Sink: ClientSink {
            func deliver(_ line: WireLine, kind: Delivery) -> Bool { true }
            func close() async {}
        }
        let id = try #require(hub.register(Sink()))
        var authority = CommandAuthority { _ in [] }
        func run(_ command: ClientCommand, errors: UInt64 = 0) -> CommandDispatcher.Outcome {
            dispatcher.dispatch(command, id: id, authority: &authority, errors: errors)
        }
        let watch = run(.watch(enable: true, rate: 30, raw: false))
        #expect(watch == .none)
        #expect(hub.expectsFrames(id: id))
        let poll = run(.poll)
        #expect(poll == .none, "no frame yet")
        guard case .reply(.status(let status)) = run(.status, errors: 2) else {
            Issue.record("status is not answered with a status")
            return
        }
        #expect(status.client.errors == 2 && status.client.rate == 30)
        guard case .refused(command: "tare", let message) = run(.tare) else {
            Issue.record("tare from an unknown peer is not refused")
            return
        }
        #expect(message.contains("tare refused"))
        authority.peer = PeerCredentials(uid: 500, gid: 500, pid: 1)
        let tare = run(.tare)
        #expect(tare == .tared(reference: .identity, hadAttitude: false))
    }
}
