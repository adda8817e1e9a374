import ArgumentParser
import TiltRender

/// `--predict auto|off|SECONDS`: how a live renderer predicts the motion it draws (issue 30).
struct PredictOption: ParsableArguments {
    @Option(
        name: .customLong("predict"),
        help: ArgumentHelp(
            "Draw the attitude for when each frame is seen: auto (tiltd predicts the sample-to-display time measured, "
                + "the renderer carries the newest frame to each frame's expected display time), off, or a fixed "
                + "number of seconds ahead of each sample (0 to 0.1) that tiltd predicts.",
            valueName: "auto|off|SECONDS"))
    var predict = "auto"

    /// The parsed setting (``validate()`` has refused anything else).
    var setting: PredictionSetting { PredictionSetting(argument: predict) ?? .auto }

    func validate() throws {
        guard PredictionSetting(argument: predict) != nil else {
            throw ValidationError("--predict must be \(PredictionSetting.argumentHelp), not '\(predict)'")
        }
    }
}
