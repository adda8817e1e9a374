import Foundation
import Testing
import TiltTestKit

@testable import TiltCore

#if canImport(Glibc)
    import Glibc
#endif

/// ``AtomicFileOutput``: the output appears complete or not at all, never replaces a file unasked, never the input.
struct AtomicFileOutputTests {
    /// A fresh folder, removed by `body`'s end.
    private func inFolder(_ body: (String) throws -> Void) throws {
        let dir = TestPaths.temporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: dir) }
        try body(dir.path)
    }

    private func contents(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }

    private func files(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    @Test("the file appears under its name only at commit, and no temporary file is left")
    func appearsAtCommit() throws {
        try inFolder { dir in
            let path = dir + "/out.csv"
            let output = try AtomicFileOutput(path: path, replacing: false)
            try output.write("a,b\n")
            try output.write("1,2\n")
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(output.temporaryPath.hasPrefix(dir + "/.partial-"))
            #expect(output.temporaryPath.hasSuffix("-out.csv"))
            #expect(contents(output.temporaryPath) == "a,b\n1,2\n")
            try output.commit()
            #expect(contents(path) == "a,b\n1,2\n")
            #expect(files(dir) == ["out.csv"])
        }
    }

    @Test("an uncommitted output (discarded, or dropped by a failing run) leaves the old file and no temporary")
    func uncommittedLeavesTheOldFile() throws {
        try inFolder { dir in
            let path = dir + "/out.csv"
            try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
            do {
                let output = try AtomicFileOutput(path: path, replacing: true)
                try output.write("half a")
            }
            #expect(contents(path) == "old\n")
            let discarded = try AtomicFileOutput(path: path, replacing: true)
            try discarded.write("half a")
            discarded.discard()
            discarded.discard()
            #expect(contents(path) == "old\n")
            #expect(files(dir) == ["out.csv"])
        }
    }

    @Test("an existing file is refused unless replacing, in calibrate's words; a replaced file keeps its mode")
    func existingNeedsReplacing() throws {
        try inFolder { dir in
            let path = dir + "/rec.csv.gz"
            try "old".write(toFile: path, atomically: false, encoding: .utf8)
            chmod(path, 0o600)
            #expect(throws: OutputFileError(path: path, problem: .exists)) {
                try AtomicFileOutput(path: path, replacing: false)
            }
            #expect(
                OutputFileError(path: path, problem: .exists).description
                    == "\(path) already exists; pass --force to replace it, or --output FILE to write elsewhere")
            let output = try AtomicFileOutput(path: path, replacing: true)
            #expect(output.temporaryPath.hasSuffix(".gz"), "a .gz output's temporary file is a .gz too")
            try output.write("new")
            try output.commit()
            #expect(contents(path) == "new")
            var info = stat()
            stat(path, &info)
            #expect(info.st_mode & 0o777 == 0o600)
        }
    }

    @Test("the input is refused even with replacing: same path, another spelling, a symbolic or a hard link")
    func inputIsNeverTheOutput() throws {
        try inFolder { dir in
            let input = dir + "/raw.csv"
            try "raw\n".write(toFile: input, atomically: false, encoding: .utf8)
            symlink(input, dir + "/sym.csv")
            link(input, dir + "/hard.csv")
            for output in [input, dir + "/./raw.csv", dir + "/sym.csv", dir + "/hard.csv"] {
                #expect(throws: OutputFileError(path: output, problem: .isInput(input))) {
                    try AtomicFileOutput(path: output, replacing: true, inputs: [input])
                }
            }
            #expect(contents(input) == "raw\n")
            let other = try AtomicFileOutput(path: dir + "/fused.csv", replacing: true, inputs: [input])
            other.discard()
        }
    }

    @Test("a missing folder fails at once, naming the folder; a folder is no output")
    func missingFolderAndFolder() throws {
        try inFolder { dir in
            let path = dir + "/missing/r.csv"
            let error = #expect(throws: OutputFileError.self) { try AtomicFileOutput(path: path, replacing: true) }
            #expect(error?.problem == .missingFolder(dir + "/missing"))
            #expect(
                error?.description.hasPrefix("cannot create \(path): the folder \(dir)/missing does not exist") == true)
            #expect(throws: OutputFileError(path: dir, problem: .isFolder)) {
                try AtomicFileOutput(path: dir, replacing: true)
            }
        }
    }

    @Test("a device is written in place without replacing, and stays a device (never renamed over)")
    func deviceIsWrittenInPlace() throws {
        let output = try AtomicFileOutput(path: "/dev/null", replacing: false)
        #expect(output.temporaryPath == "/dev/null")
        try output.write("nothing to lose\n")
        try output.commit()
        var info = stat()
        stat("/dev/null", &info)
        #expect(info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test("a symbolic link to a file stays a link; its target is replaced")
    func linkStaysALink() throws {
        try inFolder { dir in
            try "old".write(toFile: dir + "/target.csv", atomically: false, encoding: .utf8)
            symlink(dir + "/target.csv", dir + "/link.csv")
            let output = try AtomicFileOutput(path: dir + "/link.csv", replacing: true)
            try output.write("new")
            try output.commit()
            #expect(contents(dir + "/target.csv") == "new")
            #expect(
                (try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/link.csv")) == dir + "/target.csv")
        }
    }

    @Test("a bare file name is written in the working folder")
    func bareName() {
        #expect(AtomicFileOutput.split("r.csv") == (".", "r.csv"))
        #expect(AtomicFileOutput.split("/r.csv") == ("/", "r.csv"))
        #expect(AtomicFileOutput.split("a/b/r.csv") == ("a/b", "r.csv"))
    }
}
