import TiltCore
import TiltFusion

extension MotionService {
    /// The attitude filters: the main one (the daemon's default, 9D where a magnetometer is fused) always runs
    /// with the sensor; the 6D one only while a watcher asks for `magnetometer:false` and the main one is 9D. The 6D
    /// one starts with the main one's gyroscope bias, its inclination from its first sample, and the main one's
    /// tare pose carried into its earth frame.
    struct Filters {
        var main: MotionPipeline
        var game: MotionPipeline?
        let gameConfiguration: MotionPipeline.Configuration
        /// What the hub was last told runs.
        var reported: [AttitudeReference] = []

        init(configuration: MotionPipeline.Configuration) {
            main = MotionPipeline(configuration: configuration)
            var game = configuration
            game.filter.useMagnetometer = false
            gameConfiguration = game
        }

        /// Fuses `sample` in each filter that runs; the 6D one starts or stops as `wantGame` says. Returns the
        /// frames (the main one first) and, when it changed, which filters run now.
        mutating func process(
            _ sample: MotionSample, source: String, mainReference: AttitudeReference, wantGame: Bool
        ) -> (frames: [AttitudeFrame], running: [AttitudeReference]?) {
            var mainFrame = main.process(sample, source: source)
            mainFrame.reference = mainReference
            var frames = [mainFrame]
            if wantGame {
                let starting = game == nil
                if starting { game = MotionPipeline(configuration: gameConfiguration, beside: main) }
                if var pipeline = game {
                    var frame = pipeline.process(sample, source: source)
                    if starting {
                        // Tilt from the same pose as the main filter; the next frames use it.
                        pipeline.adoptReference(of: main)
                    }
                    frame.seq = mainFrame.seq
                    frame.reference = .game
                    game = pipeline
                    frames.append(frame)
                }
            } else {
                game = nil
            }
            let running: [AttitudeReference] = game == nil ? [mainReference] : [mainReference, .game]
            guard running != reported else { return (frames, nil) }
            reported = running
            return (frames, running)
        }

        /// Tares every running filter on its current pose.
        mutating func tare() -> Quaternion? {
            let reference = main.tareNow()
            _ = game?.tareNow()
            return reference
        }

        /// Undoes every tare; the 6D filter takes the main one's first pose over.
        mutating func resetTare() -> Quaternion? {
            let first = main.resetTareNow()
            game?.adoptReference(of: main)
            return first
        }

        /// The sensor stopped: the 6D filter goes (it starts again, converging anew, when next needed).
        mutating func idle() {
            game = nil
            reported = []
        }
    }
}
