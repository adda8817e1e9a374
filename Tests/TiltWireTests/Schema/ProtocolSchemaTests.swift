import Foundation
import Testing
import TiltCore
import TiltWire

/// `docs/protocol.schema.json`, the protocol as data: the committed file is what TiltWire's writer makes now, every
/// golden line of the wire tests follows it, and a message that gains a field fails the check until it is written
/// again (`scripts/protocol-schema`).
@Suite struct ProtocolSchemaTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let schemaFile = repository.appendingPathComponent("docs/protocol.schema.json")

    static func generated() throws -> JSONTree {
        try WireSchema.document(messages: WireSchemaExamples.messages, commands: WireSchemaExamples.commands)
    }

    static func committed() throws -> JSONTree {
        try JSONTree.parse(String(contentsOf: schemaFile, encoding: .utf8))
    }

    @Test func theCommittedSchemaIsWhatTheWriterMakesNow() throws {
        let text = try Self.generated().pretty() + "\n"
        if ProcessInfo.processInfo.environment["TILT_WRITE_SCHEMA"] == "1" {
            try text.write(to: Self.schemaFile, atomically: true, encoding: .utf8)
        }
        let onDisk = try? String(contentsOf: Self.schemaFile, encoding: .utf8)
        #expect(
            onDisk == text,
            "docs/protocol.schema.json is not what TiltWire writes now: run scripts/protocol-schema and commit it")
    }

    @Test func everyMessageClassAndCommandHasItsDefinition() throws {
        let defs = try #require(try Self.committed()["$defs"])
        for c in MessageClass.allCases { #expect(defs["message.\(c.rawValue)"] != nil, "\(c)") }
        for cmd in ["watch", "poll", "status", "tare"] { #expect(defs["command.\(cmd)"] != nil, "\(cmd)") }
        #expect(Set(WireSchemaExamples.messages.map(\.name)) == Set(MessageClass.allCases.map(\.rawValue)))
    }

    /// The optionals of `value` and of the structs in it that are `nil`, by path.
    private func unset(_ value: Any, path: String) -> [String] {
        var found: [String] = []
        for child in Mirror(reflecting: value).children {
            let name = "\(path).\(child.label ?? "?")"
            let mirror = Mirror(reflecting: child.value)
            if mirror.displayStyle == .optional {
                if let inner = mirror.children.first?.value {
                    found += unset(inner, path: name)
                } else {
                    found.append(name)
                }
            } else if mirror.displayStyle == .struct {
                found += unset(child.value, path: name)
            }
        }
        return found
    }

    @Test func theFullExamplesLeaveNoOptionalUnset() {
        // A field added to a message as an optional, and not set in its full example, would be missing from the
        // schema: this names it.
        for (name, value) in WireSchemaExamples.fullValues {
            #expect(unset(value, path: name).isEmpty, "set these in WireSchemaExamples: \(unset(value, path: name))")
        }
    }

    /// The one-line JSON objects written as raw string literals in the wire tests' sources.
    static func literalLines() throws -> [String] {
        let folder = repository.appendingPathComponent("Tests/TiltWireTests")
        var lines: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            var rest = text[...]
            while let open = rest.firstRange(of: "#\"{") {
                rest = rest[open.upperBound...]
                guard let close = rest.firstRange(of: "}\"#") else { break }
                lines.append("{" + rest[..<close.lowerBound] + "}")
                rest = rest[close.upperBound...]
            }
        }
        return lines
    }

    @Test func everyGoldenLineOfTheWireTestsFollowsTheSchema() throws {
        let schema = try Self.committed()
        let serverMessage = try #require(schema["$defs"]?["serverMessage"])
        let clientCommand = try #require(schema["$defs"]?["clientCommand"])
        // Golden: a line as the writer writes it (it decodes, and writing what it decoded gives it back); the
        // others test the decoders' leniency or their errors.
        var golden = 0
        for line in try Self.literalLines() {
            let bytes = Array(line.utf8)
            if let message = try? ServerMessage.decode(bytes), message.jsonLine == line {
                let problems = WireSchema.problems(try JSONTree.parse(line), serverMessage, root: schema)
                #expect(problems.isEmpty, "\(line): \(problems)")
                golden += 1
            } else if let command = try? ClientCommand.decode(bytes), command.jsonLine == line {
                let problems = WireSchema.problems(try JSONTree.parse(line), clientCommand, root: schema)
                #expect(problems.isEmpty, "\(line): \(problems)")
                golden += 1
            }
        }
        #expect(golden >= 15, "only \(golden) golden lines found in Tests/TiltWireTests")
        // And every line of the examples the schema was made from, and MessageClassTests' own examples.
        for line in WireSchemaExamples.messages.flatMap(\.lines) + MessageClassTests.examples.map(\.jsonLine) {
            #expect(WireSchema.problems(try JSONTree.parse(line), serverMessage, root: schema).isEmpty, "\(line)")
        }
    }

    @Test func linesTheWireDoesNotWriteAreRejected() throws {
        let schema = try Self.committed()
        let message = try #require(schema["$defs"]?["serverMessage"])
        let bad = [
            #"{"class":"sample","t":1,"gyr":[0,0],"acc":[0,0,0],"mag":null}"#,  // a vector of two
            #"{"class":"gap","count":3,"first":1.0}"#,  // no last
            #"{"class":"gap","count":3.5,"first":1.0,"last":2.0}"#,  // count is whole
            #"{"class":"jump"}"#,  // no such class
            #"{"class":"tare","reference":[0.0,0.0,0.0,1.0],"extra":1}"#,  // a field the message has not
        ]
        for line in bad {
            #expect(!WireSchema.problems(try JSONTree.parse(line), message, root: schema).isEmpty, "\(line)")
        }
        // A non-finite number is null on the wire, and the schema allows it.
        let nan = #"{"class":"gap","count":3,"first":null,"last":2.0}"#
        #expect(WireSchema.problems(try JSONTree.parse(nan), message, root: schema).isEmpty)
    }

    @Test func aMessageThatGainsAFieldFailsTheCheck() throws {
        // As if `gap` gained a field: the schema made from its new line is not the committed one, and the committed
        // one rejects the line.
        var messages = WireSchemaExamples.messages
        let at = try #require(messages.firstIndex { $0.name == "gap" })
        let grown = #"{"class":"gap","count":393,"first":21.5,"last":21.9375,"reason":"overrun"}"#
        messages[at].lines.append(grown)
        let regenerated = try WireSchema.document(messages: messages, commands: WireSchemaExamples.commands)
        #expect(regenerated != (try Self.committed()))
        #expect(regenerated["$defs"]?["message.gap"]?["properties"]?["reason"] != nil)
        let schema = try Self.committed()
        let problems = WireSchema.problems(try JSONTree.parse(grown), schema["$defs"]!["serverMessage"]!, root: schema)
        #expect(!problems.isEmpty)
    }
}
