/// What a desktop shell that hosts the wallpaper says about its monitors: the lines of `tiltfx wallpaper --gnome`'s
/// control channel (its standard input), written by the GNOME Shell extension, which knows what Mutter offers no
/// Wayland client: which monitors a fullscreen or maximized window covers, and when the screen is locked or blank.
///
/// ```
/// output Virtual-1 fullscreen     # NAME visible|fullscreen|covered|hidden
/// screen hidden                   # visible|hidden: locked, blanked; overrides every output while hidden
/// ```
///
/// Pure: bytes in, state out; ``ShellChannel`` reads them from a file descriptor. A line is at most
/// ``maxLineBytes`` long; a longer one, or one that says nothing known, is reported and skipped, and the lines after
/// it are read as usual (docs/gnome.md).
package struct ShellControl: Sendable, Hashable {
    /// What the shell says of one monitor.
    package enum State: String, Sendable, Hashable, CaseIterable {
        /// Nothing covers it.
        case visible
        /// A fullscreen window is on top there.
        case fullscreen
        /// A maximized or fullscreen window is there, on top or not.
        case covered
        /// Nobody can see it.
        case hidden
    }

    /// One line, understood.
    package enum Command: Sendable, Hashable {
        /// `output NAME STATE`.
        case output(String, State)
        /// `screen visible|hidden`.
        case screen(hidden: Bool)
    }

    /// The longest line taken, newline excluded.
    package static let maxLineBytes = 1024

    /// Each output's last state, by name.
    package private(set) var outputs: [String: State] = [:]
    /// Whether the shell said the whole screen is hidden (locked, blanked).
    package private(set) var screenHidden = false
    private var line: [UInt8] = []
    private var overlong = false

    /// A channel that has heard nothing yet.
    package init() {}

    /// Takes `bytes` as they came; returns the problems of the complete lines in them, one message each.
    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [String] {
        var problems: [String] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if overlong {
                    problems.append("a line longer than \(Self.maxLineBytes) bytes was skipped")
                } else if let problem = take(String(decoding: line, as: UTF8.self)) {
                    problems.append(problem)
                }
                line.removeAll(keepingCapacity: true)
                overlong = false
            } else if line.count < Self.maxLineBytes {
                line.append(byte)
            } else {
                overlong = true
            }
        }
        return problems
    }

    /// The visibility the shell gives `output`, or `nil` when it said nothing of it.
    package func visibility(of output: String) -> DesktopOutput.Visibility? {
        if screenHidden { return .hidden }
        switch outputs[output] {
        case nil: return nil
        case .visible: return .visible
        case .fullscreen: return .fullscreen
        case .covered: return .covered
        case .hidden: return .hidden
        }
    }

    /// Parses one line (without its newline).
    /// - Returns: the command, or a message saying what is wrong with the line.
    package static func parse(_ text: String) -> Result<Command, ShellControlProblem> {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        let states = State.allCases.map(\.rawValue).joined(separator: "|")
        switch words.first {
        case "output":
            guard words.count == 3, let state = State(rawValue: words[2]) else {
                return .failure(ShellControlProblem("expected 'output NAME \(states)', got '\(text)'"))
            }
            return .success(.output(words[1], state))
        case "screen":
            guard words.count == 2, words[1] == "visible" || words[1] == "hidden" else {
                return .failure(ShellControlProblem("expected 'screen visible|hidden', got '\(text)'"))
            }
            return .success(.screen(hidden: words[1] == "hidden"))
        default:
            let known = "'output NAME \(states)', 'screen visible|hidden'"
            return .failure(ShellControlProblem("unknown line '\(text)'; the lines are \(known)"))
        }
    }

    private mutating func take(_ text: String) -> String? {
        if text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { return nil }
        switch Self.parse(text) {
        case .success(.output(let name, let state)): outputs[name] = state
        case .success(.screen(let hidden)): screenHidden = hidden
        case .failure(let problem): return problem.message
        }
        return nil
    }
}

/// What is wrong with a control line.
package struct ShellControlProblem: Error, Sendable, Hashable {
    /// The message, naming the line and what the channel takes.
    package var message: String

    init(_ message: String) { self.message = message }
}
