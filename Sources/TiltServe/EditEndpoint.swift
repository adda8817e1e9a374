import Foundation
import Logging
import NIOCore
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
            let object = try ServeJSON.object(text).get()
            guard let command = object["cmd"] as? String else {
                throw ServeMessageError("no \"cmd\": send {\"cmd\":\"list\"}, open, compile or save")
            }
            switch command {
            case "list": list(session)
            case "open": try open(object, session)
            case "compile": try compile(object, session, saving: false)
            case "save": try compile(object, session, saving: true)
            default:
                throw ServeMessageError("unknown cmd '\(command)': /edit knows list, open, compile and save")
            }
        } catch {
            session.sendError(error.description)
        }
    }

    private func list(_ session: WebSocketSession) {
        let presets = workspace.list().map { ["name": $0.name, "title": $0.name, "description": $0.description] }
        session.send(text: ServeJSON.string(["class": "presets", "presets": presets]))
    }

    private func open(_ object: [String: Any], _ session: WebSocketSession) throws(ServeMessageError) {
        let name = try Self.presetName(object)
        let directory = try workspace.directory(of: name)
        let files = try workspace.files(in: directory)
        run(name: name, directory: directory, overrides: [:], session) { outcome in
            var message: [String: Any] = ["class": "preset", "preset": name, "files": files]
            if let program = outcome.program { message["program"] = Self.jsonObject(program) }
            if !outcome.errors.isEmpty { message["errors"] = outcome.errors.map(Self.jsonObject) }
            return message
        }
    }

    private func compile(_ object: [String: Any], _ session: WebSocketSession, saving: Bool)
        throws(ServeMessageError)
    {
        let name = try Self.presetName(object)
        guard let files = object["files"] as? [String: String] else {
            throw ServeMessageError("no \"files\": send {\"\(saving ? "save" : "compile")\",\"files\":{FILE:SOURCE}}")
        }
        let directory = try workspace.directory(of: name)
        for file in files.keys { try workspace.checkWritable(file, in: directory) }
        let workspace = workspace
        let logger = logger
        run(name: name, directory: directory, overrides: files, session) { outcome in
            guard saving else {
                var message: [String: Any] = [
                    "class": "compiled", "ok": outcome.program != nil, "ms": outcome.milliseconds,
                ]
                if let program = outcome.program { message["program"] = Self.jsonObject(program) }
                if outcome.program == nil { message["errors"] = outcome.errors.map(Self.jsonObject) }
                return message
            }
            guard outcome.program != nil else {
                let first = outcome.errors.first.map { " (first: \($0.file):\($0.line): \($0.message))" } ?? ""
                return [
                    "class": "error",
                    "message": "not saved: \(name) does not compile\(first); send compile to see every error",
                ]
            }
            do throws(ServeMessageError) {
                try workspace.write(files, in: directory)
            } catch {
                return ["class": "error", "message": error.description]
            }
            logger.info("saved \(files.keys.sorted().joined(separator: ", ")) of \(name)")
            return ["class": "saved", "ok": true, "files": files.keys.sorted()]
        }
    }

    /// Compiles on the GL thread and sends what `answer` makes of the outcome. `answer` runs on the GL thread too,
    /// right after the compile (a save's file writes included); only the sending goes back to the event loop.
    private func run(
        name: String, directory: String, overrides: [String: String], _ session: WebSocketSession,
        answer: @escaping @Sendable (CompileOutcome) -> [String: Any]
    ) {
        guard let loop = session.eventLoop else { return }
        let promise = loop.makePromise(of: String.self)
        compiler.submit(on: promise) { context in
            let outcome = PresetCompilation.compile(
                name: name, directory: directory, overrides: overrides, context: context)
            return ServeJSON.string(answer(outcome))
        }
        let bound = NIOLoopBound(session, eventLoop: loop)
        promise.futureResult.whenSuccess { text in bound.value.send(text: text) }
    }

    private static func presetName(_ object: [String: Any]) throws(ServeMessageError) -> String {
        guard let name = object["preset"] as? String else { throw ServeMessageError("no \"preset\": name one") }
        return name
    }

    /// A Codable value as a JSON object for `ServeJSON`.
    private static func jsonObject(_ value: some Encodable) -> Any {
        guard let data = try? JSONEncoder().encode(value), let object = try? JSONSerialization.jsonObject(with: data)
        else { return NSNull() }
        return object
    }
}
