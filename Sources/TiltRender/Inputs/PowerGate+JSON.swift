import TiltCore
import TiltEffects
import TiltWire

/// The JSON lines of `tiltfx run --headless --stats`, written with the wire's `JSONWriter` so that strings are
/// escaped and numbers follow the one convention (a non-finite number is `null`).
extension PowerGate.Stats {
    /// One JSON line: `{"class":"stats","drawn":N,"skipped":N,"modes":{"full":{"drawn":…,"skipped":…,`
    /// `"seconds":…,"entered":…},"capped":{…},"still":{…},"hidden":{…}}}`; seconds are rounded to milliseconds.
    package var jsonLine: String {
        var json = JSONWriter()
        json.field("class", "stats")
        json.field("drawn", drawn)
        json.field("skipped", skipped)
        json.object("modes") { modesJSON in
            for mode in PowerMode.allCases {
                let entry = modes[mode] ?? Entry()
                modesJSON.object(mode.rawValue) { e in
                    e.field("drawn", entry.drawn)
                    e.field("skipped", entry.skipped)
                    e.field("seconds", (entry.seconds * 1000).rounded() / 1000)
                    e.field("entered", entry.entered)
                }
            }
        }
        return json.finish()
    }
}

extension PowerPolicy.Decision {
    /// One JSON line for a mode change and the power state that caused it (`nil`: no daemon, counted as mains):
    /// `{"class":"mode","mode":"still","frameRate":0.0,"motionRate":null,"onBattery":false,`
    /// `"profile":"power-saver","lowPower":true}`.
    package func jsonLine(power: PowerState?) -> String {
        var json = JSONWriter()
        json.field("class", "mode")
        json.field("mode", mode.rawValue)
        if let frameRate { json.field("frameRate", frameRate) } else { json.null("frameRate") }
        if let motionRate { json.field("motionRate", motionRate) } else { json.null("motionRate") }
        json.field("onBattery", power?.onBattery ?? false)
        if let profile = power?.profile { json.field("profile", profile) } else { json.null("profile") }
        json.field("lowPower", power?.lowPower ?? false)
        return json.finish()
    }
}
