import ArgumentParser
import TiltCore

/// What tilt's three programs share about their command lines.
extension ParsableCommand {
    /// Ends the program for an error met while parsing the command line, as `exit(withError:)` does (the same
    /// status: 64 for a usage mistake, 0 for `--help`), with the argument parser's own words in the house style
    /// (`error: unknown option '--bogus'; did you mean '--out'?`). A `ValidationError` is this program's own
    /// sentence and is left as it is.
    package static func exitParsing(_ error: any Error) -> Never {
        guard !(error is ValidationError), exitCode(for: error) != .success else { exit(withError: error) }
        let message = message(for: error)
        var full = fullMessage(for: error)
        if !message.isEmpty, let range = full.firstRange(of: message) {
            full.replaceSubrange(range, with: ErrorLine.houseStyle(message))
        }
        StandardStream.error.write(full + "\n")
        exit(withError: ExitCode(exitCode(for: error).rawValue))
    }

    /// Parses the command line (its mistakes in the house style: ``exitParsing(_:)``) and runs the command; an error
    /// it throws ends the program as `exit(withError:)` does.
    ///
    /// - Parameter arguments: The arguments without the program's name; `nil`: the process's own.
    package static func parseAndRun(_ arguments: [String]? = nil) async {
        var command: any ParsableCommand
        do { command = try parseAsRoot(arguments) } catch { exitParsing(error) }
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
