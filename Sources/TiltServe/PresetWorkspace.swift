import FoundationEssentials
import TiltCore
import TiltEffects

/// The presets `/edit` may read and write: folders found by the preset search, each one's editable files
/// (`preset.json` and the `.glsl` files directly in it), and the rules a file name must pass before anything is
/// written.
struct PresetWorkspace: Sendable {
    let library: PresetLibrary

    /// A preset that can be edited: its name, folder and description.
    struct Entry: Sendable {
        let name: String
        let directory: String
        let description: String
    }

    /// Every preset that is a folder (Shadertoy JSON exports are files, not editable here).
    func list() -> [Entry] {
        library.presetDirectories().compactMap { found in
            guard Self.isFolder(found.directory) else { return nil }
            let description = (try? Preset.load(directory: found.directory))?.description ?? ""
            return Entry(name: found.name, directory: found.directory, description: description)
        }
    }

    /// The folder of the preset called `name`.
    /// - Throws: `ServeMessageError` when there is none, or it is not a folder.
    func directory(of name: String) throws(ServeMessageError) -> String {
        guard Self.isPlainName(name) else { throw ServeMessageError(.noSuchPreset, "'\(name)' is not a preset name") }
        let directory: String
        do { directory = try library.directory(of: name) } catch { throw ServeMessageError(.noSuchPreset, "\(error)") }
        guard Self.isFolder(directory) else {
            throw ServeMessageError(
                .noSuchPreset, "preset '\(name)' is a Shadertoy JSON export, not a folder: it cannot be edited here")
        }
        return URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The editable files of the preset in `directory`: file name → text.
    func files(in directory: String) throws(ServeMessageError) -> [String: String] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
            throw ServeMessageError(.io, "cannot list \(directory): \(errorReason(error))")
        }
        var files: [String: String] = [:]
        for name in names where Self.isEditableName(name) {
            let path = directory + "/" + name
            guard Self.isRegularFile(path), let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                continue
            }
            files[name] = text
        }
        return files
    }

    /// Checks that `name` may be written in the preset's folder `directory`.
    /// - Throws: `ServeMessageError` saying why not: an absolute path, `..`, a subfolder, another extension, or a
    ///   symbolic link (which could point out of the folder).
    func checkWritable(_ name: String, in directory: String) throws(ServeMessageError) {
        guard !name.hasPrefix("/") else {
            throw ServeMessageError(
                .refusedFile, "\(name): an absolute path; name a file of the preset's folder (e.g. card.glsl)")
        }
        guard !name.contains("/"), !name.contains("\\"), name != "..", name != "." else {
            throw ServeMessageError(
                .refusedFile,
                "\(name): leaves the preset's folder or names a subfolder; only files directly in it may be saved")
        }
        guard Self.isEditableName(name) else {
            throw ServeMessageError(.refusedFile, "\(name): only preset.json and .glsl files may be saved")
        }
        let path = directory + "/" + name
        if let kind = try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType,
            kind != .typeRegular
        {
            throw ServeMessageError(
                .refusedFile, "\(name): not a plain file in the preset's folder (a link or a folder); not written")
        }
    }

    /// Writes each file atomically (``AtomicFileOutput``: a temporary file in the same folder, synced and renamed
    /// over the old one, keeping its permissions), so a reader (or `tiltfx run`'s watcher) sees the old file or the
    /// new one, never half of it.
    func write(_ files: [String: String], in directory: String) throws(ServeMessageError) {
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            let path = directory + "/" + name
            do throws(OutputFileError) {
                let output = try AtomicFileOutput(path: path, replacing: true)
                try output.write(text)
                try output.commit()
            } catch {
                throw ServeMessageError(
                    .io, "cannot write \(path): \(error.code == 0 ? error.description : error.reason)")
            }
        }
    }

    /// `preset.json` or `NAME.glsl`, with no path and no leading dot.
    static func isEditableName(_ name: String) -> Bool {
        name == Preset.fileName || (name.hasSuffix(".glsl") && name.count > 5 && isPlainName(name))
    }

    /// A name of one path component: not empty, no `/`, no leading `.`.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\0")
    }

    static func isFolder(_ path: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory
    }

    static func isRegularFile(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
    }
}
