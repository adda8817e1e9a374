import FoundationEssentials
import Logging
import NIOCore
import TiltCore
import TiltEffects

/// `/edit`: list, open, compile and save presets (docs/serve.md). Compiles run on the server's one GL thread; the
/// answers come back in the order the page asked.
final class EditEndpoint: WebSocketEndpoint, Sendable {
    private let workspace: PresetWorkspace
    private let compiler: ShaderCompileThread
    private let logger: Logger

    init(workspace: PresetWorkspace, compiler: ShaderCompileThread, logger: Logger) {
        self.workspace = workspace
        self.compiler = compiler
        self.logger = logger
    }

    func opened(_ session: WebSocketSession) {}

    func closed() {}

    func received(_ text: String, from session: WebSocketSession) {
        do throws(ServeMessageError) {
            switch try EditRequest.decode(text) {
            case .list: list(session)
            case .open(let preset): try open(preset, session)
            case .compile(let preset, let files): try compile(preset, files, session, saving: false)
            case .save(let preset, let files): try compile(preset, files, session, saving: true)
            }
        } catch {
            session.sendError(error.description)
        }
    }

    private func list(_ session: WebSocketSession) {
        let presets = workspace.list().map {
            EditReply.PresetEntry(name: $0.name, title: $0.name, description: $0.description)
        }
        session.send(text: EditReply.presets(presets).text)
    }

    private func open(_ name: String, _ session: WebSocketSession) throws(ServeMessageError) {
        let directory = try workspace.directory(of: name)
        let files = try workspace.files(in: directory)
        run(name: name, directory: directory, overrides: [:], session) { outcome in
            .preset(name: name, files: files, program: outcome.program, errors: outcome.errors)
        }
    }

    private func compile(
        _ name: String, _ files: [String: String], _ session: WebSocketSession, saving: Bool
    ) throws(ServeMessageError) {
        let directory = try workspace.directory(of: name)
        for file in files.keys { try workspace.checkWritable(file, in: directory) }
        let workspace = workspace
        let logger = logger
        run(name: name, directory: directory, overrides: files, session) { outcome in
            guard saving else {
                return .compiled(program: outcome.program, errors: outcome.errors, milliseconds: outcome.milliseconds)
            }
            guard outcome.program != nil else {
                let first = outcome.errors.first.map { " (first: \($0.file):\($0.line): \($0.message))" } ?? ""
                return .error("not saved: \(name) does not compile\(first); send compile to see every error")
            }
            do throws(ServeMessageError) {
                try workspace.write(files, in: directory)
            } catch {
                return .error(error.description)
            }
            logger.info("saved \(files.keys.sorted().joined(separator: ", ")) of \(name)")
            return .saved(files: files.keys.sorted())
        }
    }

    /// Compiles on the GL thread and sends what `answer` makes of the outcome. `answer` runs on the GL thread too,
    /// right after the compile (a save's file writes included); only the sending goes back to the event loop.
    private func run(
        name: String, directory: String, overrides: [String: String], _ session: WebSocketSession,
        answer: @escaping @Sendable (CompileOutcome) -> EditReply
    ) {
        guard let loop = session.eventLoop else { return }
        let promise = loop.makePromise(of: String.self)
        compiler.submit(on: promise) { context in
            let outcome = PresetCompilation.compile(
                name: name, directory: directory, overrides: overrides, context: context)
            return answer(outcome).text
        }
        let bound = NIOLoopBound(session, eventLoop: loop)
        promise.futureResult.whenSuccess { text in bound.value.send(text: text) }
    }
}
