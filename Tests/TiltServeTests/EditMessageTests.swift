import Foundation
import Testing
import TiltCore
import TiltEffects

@testable import TiltServe

/// `/edit`'s typed requests and replies: what a page sends decodes to one request or to the error the page is told,
/// and the replies are the JSON docs/serve.md gives (the text `JSONSerialization` wrote before them).
@Suite struct EditMessageTests {
    @Test(arguments: [
        (#"{"cmd":"list"}"#, EditRequest.list),
        (#"{"cmd":"open","preset":"holo-card"}"#, .open(preset: "holo-card")),
        (
            #"{"cmd":"compile","preset":"foil","files":{"foil.glsl":"void main() {}"}}"#,
            .compile(preset: "foil", files: ["foil.glsl": "void main() {}"])
        ),
        (
            #"{"files":{"preset.json":"{}","a.glsl":""},"cmd":"save","preset":"foil","extra":1}"#,
            .save(preset: "foil", files: ["preset.json": "{}", "a.glsl": ""])
        ),
    ])
    func decodesRequests(_ text: String, _ expected: EditRequest) throws {
        #expect(try EditRequest.decode(text) == expected)
    }

    @Test(
        "a bad request is one error saying what to send",
        arguments: [
            ("compile please", ServeMessageError.Kind.notAnObject, "not JSON: send one JSON object per message"),
            ("", .notAnObject, "not JSON"),
            ("[1,2]", .notAnObject, "not a JSON object"),
            (#""list""#, .notAnObject, "not a JSON object"),
            ("{}", .unknownCommand, #"no "cmd": send {"cmd":"list"}, open, compile or save"#),
            (#"{"cmd":7}"#, .unknownCommand, #"no "cmd""#),
            (#"{"cmd":"explode"}"#, .unknownCommand, "unknown cmd 'explode': /edit knows list, open, compile and save"),
            (#"{"cmd":"open"}"#, .missingField, #"no "preset": name one"#),
            (#"{"cmd":"open","preset":3}"#, .missingField, #"no "preset""#),
            (
                #"{"cmd":"compile","preset":"foil"}"#, .missingField,
                #"no "files": send {"cmd":"compile","preset":NAME,"#
            ),
            (
                #"{"cmd":"save","preset":"foil","files":{"a.glsl":1}}"#, .missingField,
                #"no "files": send {"cmd":"save""#
            ),
            (#"{"cmd":"save","files":{"a.glsl":"x"}}"#, .missingField, #"no "preset""#),
        ])
    func refusesBadRequests(_ text: String, _ kind: ServeMessageError.Kind, _ needle: String) {
        do {
            let request = try EditRequest.decode(text)
            Issue.record("decoded \(request) from \(text)")
        } catch {
            #expect(error.kind == kind, "\(error.description)")
            #expect(error.description.contains(needle), "\(error.description)")
        }
    }

    /// What the server wrote before the replies were typed: the same object through `JSONSerialization`.
    private func serialized(_ object: [String: Any]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    @Test func repliesAreTheDocumentedJSON() throws {
        let diagnostic = ShaderSourceMap.Diagnostic(file: "card.glsl", line: 42, column: 7, message: "'x' : undeclared")
        let error: [String: Any] = ["file": "card.glsl", "line": 42, "column": 7, "message": "'x' : undeclared"]
        let cases: [(EditReply, [String: Any])] = [
            (
                .presets([.init(name: "foil", title: "foil", description: "a foil / sheen")]),
                ["class": "presets", "presets": [["name": "foil", "title": "foil", "description": "a foil / sheen"]]]
            ),
            (
                .preset(
                    name: "foil", files: ["foil.glsl": "x\n", "preset.json": "{}"], program: nil, errors: [diagnostic]),
                [
                    "class": "preset", "preset": "foil", "files": ["foil.glsl": "x\n", "preset.json": "{}"],
                    "errors": [error],
                ]
            ),
            (
                .preset(name: "foil", files: [:], program: nil, errors: []),
                ["class": "preset", "preset": "foil", "files": [String: String]()]
            ),
            (
                .compiled(program: nil, errors: [diagnostic], milliseconds: 12.25),
                ["class": "compiled", "ok": false, "ms": 12.25, "errors": [error]]
            ),
            (
                .saved(files: ["a.glsl", "preset.json"]),
                ["class": "saved", "ok": true, "files": ["a.glsl", "preset.json"]]
            ),
            (
                .error("not saved: foil/x does not compile"),
                ["class": "error", "message": "not saved: foil/x does not compile"]
            ),
        ]
        for (reply, object) in cases {
            #expect(reply.text == (try serialized(object)), "\(reply.text)")
        }
        #expect(
            ServeJSON.error("a \"quoted\" / line\n")
                == (try serialized(["class": "error", "message": "a \"quoted\" / line\n"])))
    }
}
