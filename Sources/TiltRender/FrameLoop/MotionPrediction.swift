import TiltCore
import TiltWire

/// How a live renderer predicts the motion it draws (issue 30): `--predict auto|off|SECONDS`.
package enum PredictionSetting: Sendable, Hashable, CustomStringConvertible {
    /// None: each frame shows the newest attitude as fused.
    case off
    /// The attitude at each frame's expected presentation: tiltd predicts frames ahead by the sample-to-display
    /// time measured so far (its fitted prediction, tilt smoothed after it), and the renderer carries the newest
    /// frame the rest of the way to the moment its frame is expected on the display.
    case auto
    /// tiltd predicts every frame this many seconds ahead of its sample (0 … 0.1), nothing more.
    case fixed(Double)

    /// `auto`, `off`, or seconds from 0 to 0.1; `nil` otherwise.
    package init?(argument: String) {
        switch argument {
        case "auto": self = .auto
        case "off": self = .off
        default:
            guard let seconds = Double(argument), seconds.isFinite, seconds >= 0, seconds <= WireProtocol.maxPredict
            else { return nil }
            self = seconds == 0 ? .off : .fixed(seconds)
        }
    }

    /// What `--predict` takes, for help and errors.
    package static let argumentHelp = "auto, off, or seconds from 0 to \(WireProtocol.maxPredict)"

    package var description: String {
        switch self {
        case .off: "off"
        case .auto: "auto"
        case .fixed(let seconds): "\(seconds)"
        }
    }
}

/// What a live renderer measured from motion to display, frame by frame: the sample-to-swap time and its parts, and
/// the prediction each frame used. Fixed memory (``LatencyRecord``s), so a renderer that runs for days keeps it.
package struct PresentationTiming: Sendable {
    /// From the sample entering tiltd (the frame's `mono`) to the end of the frame's swap.
    package private(set) var sampleToSwap = LatencyRecord()
    /// From the sample entering tiltd to the frame reaching the renderer: tiltd's fusion and the socket.
    package private(set) var daemonAndSocket = LatencyRecord()
    /// From the frame reaching the renderer to the renderer starting the frame that shows it.
    package private(set) var rendererWait = LatencyRecord()
    /// From the start of the frame (motion read) to the end of its swap.
    package private(set) var draw = LatencyRecord()
    /// How far ahead of its sample each drawn frame's attitude was predicted.
    package private(set) var prediction = LatencyRecord()
    /// The display's part the sink expects after the swap (a refresh period on a display, 0 offscreen), as last
    /// told.
    package private(set) var displayDelay = 0.0
    /// A smoothed draw time and sample-to-swap time, seconds: what the next frame is expected to take.
    package private(set) var expectedDraw = 1.0 / 60
    package private(set) var expectedSampleToSwap: Double?

    package init() {}

    /// Counts one frame: its motion's `mono`, when it was received, started and swapped, and its prediction.
    package mutating func add(
        mono: Double?, received: Double?, drawStart: Double, swapEnd: Double, predicted: Double?, displayDelay: Double
    ) {
        self.displayDelay = displayDelay
        let drawTime = max(0, swapEnd - drawStart)
        draw.add(drawTime)
        expectedDraw += (drawTime - expectedDraw) * 0.1
        prediction.add(predicted ?? 0)
        guard let mono else { return }
        let total = swapEnd - mono
        sampleToSwap.add(total)
        expectedSampleToSwap = expectedSampleToSwap.map { $0 + (total - $0) * 0.1 } ?? total
        if let received {
            daemonAndSocket.add(received - mono)
            rendererWait.add(drawStart - received)
        }
    }

    /// Seconds from a frame's start to its light: the expected draw and the display's part.
    package var expectedLead: Double { expectedDraw + displayDelay }

    /// `{"class":"latency","frames":N,"prediction":"auto","sampleToSwapMs":{"p50":…,"p99":…},"daemonAndSocketMs":{…},`
    /// `"rendererWaitMs":{…},"drawMs":{…},"predictedMs":{…},"displayDelayMs":…}`: the run's measurements, in
    /// milliseconds to 0.1 ms (`null` where nothing was measured).
    package func jsonLine(setting: PredictionSetting) -> String {
        var json = JSONWriter()
        json.field("class", "latency")
        json.field("frames", draw.count)
        json.field("prediction", setting.description)
        for (key, record) in [
            ("sampleToSwapMs", sampleToSwap), ("daemonAndSocketMs", daemonAndSocket),
            ("rendererWaitMs", rendererWait), ("drawMs", draw), ("predictedMs", prediction),
        ] {
            json.object(key) { part in
                for (name, p) in [("p50", 0.5), ("p99", 0.99)] {
                    if let v = record.percentile(p) {
                        part.field(name, (v * 10_000).rounded() / 10)
                    } else {
                        part.null(name)
                    }
                }
            }
        }
        json.field("displayDelayMs", (displayDelay * 10_000).rounded() / 10)
        return json.finish()
    }
}
