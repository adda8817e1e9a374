import Foundation
import Testing
import TiltTestKit

@testable import TiltCore

#if canImport(Glibc)
    import Glibc
#endif

/// ``OutputPath``: one check for every output, naming what is wrong with the path as the user spelled it.
struct OutputPathTests {
    /// A fresh folder, removed by `body`'s end.
    private func inFolder(_ body: (String) throws -> Void) throws {
        let dir = TestPaths.temporaryDirectory("outpath")
        defer { try? FileManager.default.removeItem(at: dir) }
        try body(dir.path)
    }

    /// The problem `AtomicFileOutput` has with `path`, or `nil` when it takes it (and is discarded).
    private func problem(_ path: String, replacing: Bool = true) -> OutputFileError.Problem? {
        do {
            try AtomicFileOutput(path: path, replacing: replacing).discard()
            return nil
        } catch {
            return error.problem
        }
    }

    private func files(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    @Test("a path spelled as a folder (x/, ., ./, .., a/.., empty) is refused as a file, and nothing is created")
    func folderSpellings() throws {
        try inFolder { dir in
            for path in ["x/", ".", "./", "..", "a/..", "", dir + "/x/", dir + "/", "/tmp/nope-\(getpid())/"] {
                #expect(OutputPath.namesFolder(path), "\(path)")
                #expect(problem(path) == .namesFolder, "\(path)")
            }
            #expect(files(dir).isEmpty)
            for path in ["x", "x.png", "a/b.csv", ".hidden", "a/.b"] { #expect(!OutputPath.namesFolder(path)) }
        }
    }

    @Test("the words for a folder's name say so and give a file inside it")
    func folderNameWords() {
        let error = OutputFileError(path: "/tmp/nope/", problem: .namesFolder)
        #expect(
            error.description == "/tmp/nope/ names a folder; give the path of a file to write (e.g. /tmp/nope/NAME)")
        #expect(error.code == 0)
    }

    @Test("a file in a missing folder names that folder (not its parent) and says to create it")
    func missingFolder() throws {
        try inFolder { dir in
            #expect(problem(dir + "/nope/x.png") == .missingFolder(dir + "/nope"))
            #expect(problem(dir + "/a/b/x.png") == .missingFolder(dir + "/a/b"))
            let words = OutputFileError(path: dir + "/nope/x.png", problem: .missingFolder(dir + "/nope")).description
            #expect(words.contains("the folder \(dir)/nope does not exist; create it (mkdir -p \(dir)/nope)"))
        }
    }

    @Test("a file where a folder should be is named")
    func fileOnTheWay() throws {
        try inFolder { dir in
            _ = FileManager.default.createFile(atPath: dir + "/afile", contents: Data())
            #expect(problem(dir + "/afile/x.png") == .notFolder(dir + "/afile"))
            #expect(problem(dir + "/afile/b/x.png") == .notFolder(dir + "/afile"))
        }
    }

    @Test(
        "a folder that exists but takes no files (/proc) is named as such, not as missing",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self"), "needs Linux's /proc"))
    func systemFolder() {
        let found = problem("/proc/x.png")
        #expect(found == .folderRefuses("/proc", code: ENOENT))
        let words = OutputFileError(path: "/proc/x.png", problem: found ?? .exists).description
        #expect(!words.contains("does not exist"), "\(words)")
        #expect(words.contains("the folder /proc takes no new files"), "\(words)")
    }

    @Test("checkFile leaves nothing behind and refuses what AtomicFileOutput refuses")
    func checkFile() throws {
        try inFolder { dir in
            try OutputPath.checkFile(dir + "/a.png", replacing: true)
            #expect(files(dir).isEmpty)
            #expect(throws: OutputFileError(path: dir + "/", problem: .namesFolder)) {
                try OutputPath.checkFile(dir + "/", replacing: true)
            }
        }
    }

    @Test("makeFolder creates the missing folders, takes an existing one, and names a file in the way")
    func makeFolder() throws {
        try inFolder { dir in
            try OutputPath.makeFolder(dir + "/a/b/c/")
            var isFolder: ObjCBool = false
            #expect(
                FileManager.default.fileExists(atPath: dir + "/a/b/c", isDirectory: &isFolder) && isFolder.boolValue)
            try OutputPath.makeFolder(dir + "/a/b/c")
            try OutputPath.makeFolder(".")
            _ = FileManager.default.createFile(atPath: dir + "/new.png", contents: Data())
            #expect(throws: OutputFileError(path: dir + "/new.png", problem: .notFolder(dir + "/new.png"))) {
                try OutputPath.makeFolder(dir + "/new.png")
            }
            #expect(throws: OutputFileError(path: dir + "/new.png/sub/", problem: .notFolder(dir + "/new.png"))) {
                try OutputPath.makeFolder(dir + "/new.png/sub/")
            }
        }
    }

    @Test(
        "makeFolder in a system folder (/proc/x/) names /proc as taking no folders",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self"), "needs Linux's /proc"))
    func makeFolderInProc() {
        #expect(throws: OutputFileError(path: "/proc/x/", problem: .folderRefuses("/proc", code: ENOENT))) {
            try OutputPath.makeFolder("/proc/x/")
        }
    }

    @Test("the folder of a path, as spelled")
    func folderOf() {
        #expect(OutputPath.folder(of: "x.png") == ".")
        #expect(OutputPath.folder(of: "a/b/x.png") == "a/b")
        #expect(OutputPath.folder(of: "a//x.png") == "a")
        #expect(OutputPath.folder(of: "/x.png") == "/")
        #expect(OutputPath.folder(of: "a/b/") == "a")
    }

    @Test("leftovers: the .partial files of earlier outputs to the same name, and only those")
    func leftovers() throws {
        try inFolder { dir in
            for name in [".partial-AbC123-out.csv", ".partial-xyz789-other.csv", ".partial-out.csv", "out.csv"] {
                _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: Data())
            }
            #expect(AtomicFileOutput.leftovers(of: dir + "/out.csv") == [dir + "/.partial-AbC123-out.csv"])
            #expect(AtomicFileOutput.leftovers(of: dir + "/none.csv").isEmpty)
        }
    }

    @Test("readerLeft: a pipe's writing end knows when its reader closed, without writing")
    func readerLeft() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[1]) }
        #expect(!StandardOutput.readerLeft(fds[1]))
        close(fds[0])
        #expect(StandardOutput.readerLeft(fds[1]))
    }
}
