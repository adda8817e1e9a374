import TiltCore
import TiltFusion

extension MotionService {
    /// The attitude filters, each run only while someone needs it (issue 16). On a daemon that fuses a magnetometer
    /// the 9D one (`magnetic`) runs while a watcher or a poll wants it, the 6D one (`game`) while a watcher asks for
    /// `magnetometer:false` or while the sensor runs for what needs no heading (only D-Bus claims); a daemon whose
    /// main filter is 6D runs that one alone. A filter that starts beside a running one takes its gyroscope bias, and
    /// its tare reference carried into its own earth frame, taken again at every sample while it initializes (its
    /// inclination and heading still settle) so that both tilt from the same pose. Every fused sample gets one `seq`,
    /// whichever filters run.
    struct Filters {
        /// The pipelines by the attitude they give; one that stopped while another ran is dropped, the last to run
        /// is kept while the sensor is idle (a restart resumes it with its tare).
        private(set) var pipelines: [AttitudeReference: MotionPipeline] = [:]
        let configurations: [AttitudeReference: MotionPipeline.Configuration]
        /// The daemon's default attitude.
        let main: AttitudeReference
        /// The `seq` of the next fused sample.
        private(set) var nextSeq: UInt64 = 0
        /// What runs, in the order frames come (the main filter first); what the hub was last told.
        private(set) var running: [AttitudeReference] = []
        /// Which pipeline joined beside the other and still initializes: it follows the other's tare reference.
        private var joining: AttitudeReference?
        /// The prediction horizons watchers ask for, whole milliseconds: each pipeline keeps a tilt smoothing per
        /// horizon (``MotionPipeline/predictionHorizons``).
        var horizons: Set<Int> = []
        /// The `seq` at which each pipeline started: the one started first is the elder, whose first pose a tare
        /// reset goes back to.
        private var since: [AttitudeReference: UInt64] = [:]

        init(configuration: MotionPipeline.Configuration, main: AttitudeReference) {
            self.main = main
            var game = configuration
            game.filter.useMagnetometer = false
            configurations = main == .magnetic ? [.magnetic: configuration, .game: game] : [.game: configuration]
        }

        /// The filters to run for `wanted`, the main one first: only the main one on a 6D daemon.
        func toRun(_ wanted: Set<AttitudeReference>) -> [AttitudeReference] {
            guard main == .magnetic else { return [main] }
            let order: [AttitudeReference] = [.magnetic, .game]
            let chosen = order.filter(wanted.contains)
            return chosen.isEmpty ? [.game] : chosen
        }

        /// Fuses `sample` in each filter `wanted` needs, starting and stopping them. Returns the frames (the main
        /// one first) and, when it changed, which filters run now.
        mutating func process(
            _ sample: MotionSample, source: String, wanted: Set<AttitudeReference>
        ) -> (frames: [AttitudeFrame], running: [AttitudeReference]?) {
            let now = toRun(wanted)
            let seq = nextSeq
            nextSeq &+= 1
            var fused: [AttitudeReference: (pipeline: MotionPipeline, frame: AttitudeFrame)] = [:]
            // Those that ran last time (or resume after idle) go first, so that one starting has one to join; one
            // that joined another and still initializes goes after it and follows its tare reference.
            let resuming = now.filter { running.contains($0) || (running.isEmpty && pipelines[$0] != nil) }
            let leader = joining.flatMap { j in resuming.contains(j) ? resuming.first { $0 != j } : nil }
            for reference in resuming where leader == nil || reference != joining {
                fused[reference] = fuse(sample, source, in: pipelines[reference], reference, following: nil)
            }
            var follower: AttitudeReference?
            if let young = joining, let leader, let other = fused[leader]?.pipeline {
                fused[young] = fuse(sample, source, in: pipelines[young], young, following: other)
                if fused[young]?.frame.flags.initializing == true { follower = young }
            }
            for reference in now where fused[reference] == nil {
                // The one to join: one running, else one kept from before the sensor stopped (fused once for it).
                var other = resuming.first.flatMap { fused[$0]?.pipeline }
                if other == nil, running.isEmpty, let (kept, p) = pipelines.first(where: { $0.key != reference }) {
                    other = fuse(sample, source, in: p, kept, following: nil).pipeline
                }
                let configuration = configurations[reference] ?? configurations[main]!
                let pipeline =
                    other.map { MotionPipeline(configuration: configuration, beside: $0) }
                    ?? MotionPipeline(configuration: configuration)
                fused[reference] = fuse(sample, source, in: pipeline, reference, following: other)
                if other != nil { follower = reference }
                since[reference] = seq
            }
            joining = follower
            let frames = now.compactMap { reference -> AttitudeFrame? in
                guard var frame = fused[reference]?.frame else { return nil }
                frame.seq = seq
                frame.reference = reference
                return frame
            }
            pipelines = fused.mapValues(\.pipeline)
            since = since.filter { fused[$0.key] != nil }
            guard now != running else { return (frames, nil) }
            running = now
            return (frames, now)
        }

        private func fuse(
            _ sample: MotionSample, _ source: String, in pipeline: MotionPipeline?, _ reference: AttitudeReference,
            following other: MotionPipeline?
        ) -> (pipeline: MotionPipeline, frame: AttitudeFrame) {
            var p = pipeline ?? MotionPipeline(configuration: configurations[reference] ?? configurations[main]!)
            if p.predictionHorizons != horizons { p.predictionHorizons = horizons }
            let frame = p.process(sample, source: source, following: other)
            return (p, frame)
        }

        /// `frame` (this sample's, from the filter its `reference` names) predicted for each of ``horizons``.
        func predictions(of frame: AttitudeFrame) -> [Int: AttitudeFrame] {
            guard !horizons.isEmpty, let pipeline = pipelines[frame.reference ?? main] else { return [:] }
            var out: [Int: AttitudeFrame] = [:]
            for ms in horizons { out[ms] = pipeline.predictedFrame(frame, horizon: Double(ms) / 1000) }
            return out
        }

        /// Tares every filter on its current pose (those kept while the sensor is idle included); a filter started
        /// later joins the tared reference. Returns the main filter's (or the running one's) new reference.
        mutating func tare() -> Quaternion? {
            var result: Quaternion?
            for reference in order {
                guard var p = pipelines[reference] else { continue }
                let q = p.tareNow()
                if result == nil { result = q }
                pipelines[reference] = p
            }
            return result
        }

        /// Undoes every tare: the filter that has run longest goes back to its first pose, the other takes that
        /// reference over (carried into its earth frame).
        mutating func resetTare() -> Quaternion? {
            let present = order.filter { pipelines[$0] != nil }
            guard let first = present.min(by: { since[$0] ?? 0 < since[$1] ?? 0 }), var elder = pipelines[first]
            else { return nil }
            let pose = elder.resetTareNow()
            pipelines[first] = elder
            for reference in present where reference != first {
                pipelines[reference]?.adoptReference(of: elder)
            }
            return pose
        }

        /// The next sample follows a gap (a replayed log's marker, or its time going back): no filter integrates
        /// across it, those kept while idle included.
        mutating func markGap() {
            for reference in pipelines.keys { pipelines[reference]?.markGap() }
        }

        /// The sensor stopped: the filters are kept (a restart resumes them, tare included) and reported as idle.
        mutating func idle() {
            running = []
            joining = nil
        }

        /// The gyroscope bias of the first filter that runs.
        var gyroBias: Vector3 {
            running.lazy.compactMap { pipelines[$0]?.filter.gyroBias }.first ?? .zero
        }

        /// The order frames and status list the filters in.
        private var order: [AttitudeReference] { [.magnetic, .game] }
    }
}
