import ArgumentParser
import Foundation
import TiltCore

extension ParsableCommand {
    /// Ends the program for an error met while parsing the command line, as `exit(withError:)` does (the same
    /// status: 64 for a usage mistake, 0 for `--help`), with the argument parser's own words in the house style
    /// (`error: unknown option '--bogus'; did you mean '--out'?`). A `ValidationError` is this program's own
    /// sentence and is left as it is.
    static func exitParsing(_ error: any Error) -> Never {
        guard !(error is ValidationError), exitCode(for: error) != .success else { exit(withError: error) }
        let message = message(for: error)
        var full = fullMessage(for: error)
        if !message.isEmpty, let range = full.range(of: message) {
            full.replaceSubrange(range, with: ErrorLine.houseStyle(message))
        }
        FileHandle.standardError.write(Data((full + "\n").utf8))
        exit(withError: ExitCode(exitCode(for: error).rawValue))
    }
}
