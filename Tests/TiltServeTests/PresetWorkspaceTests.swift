import Foundation
import Testing
import TiltCore
import TiltEffects
import TiltTestKit

@testable import TiltServe

/// The rules `/edit` applies before anything is written, by kind.
@Suite struct PresetWorkspaceTests {
    private func kind(_ body: () throws -> Void) -> ServeMessageError.Kind? {
        do {
            try body()
            return nil
        } catch {
            return (error as? ServeMessageError)?.kind
        }
    }

    @Test func presetsThatCannotBeEditedAndFilesThatMayNotBeSaved() throws {
        let root = TestPaths.temporaryDirectory("workspace")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let workspace = PresetWorkspace(library: PresetLibrary(searchPaths: [root.path]))
        #expect(kind { _ = try workspace.directory(of: "../mine") } == .noSuchPreset)
        #expect(kind { _ = try workspace.directory(of: "nowhere") } == .noSuchPreset)
        for name in ["/tmp/absolute.glsl", "../escaped.glsl", "sub/new.glsl", "..", "notes.txt", "sub.glsl/../x"] {
            #expect(kind { try workspace.checkWritable(name, in: folder.path) } == .refusedFile, "\(name)")
        }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("folder.glsl"), withIntermediateDirectories: true)
        #expect(kind { try workspace.checkWritable("folder.glsl", in: folder.path) } == .refusedFile)
        #expect(kind { try workspace.checkWritable("card.glsl", in: folder.path) } == nil)
        #expect(kind { try workspace.write(["card.glsl": "x"], in: root.path + "/gone") } == .io)
    }
}
