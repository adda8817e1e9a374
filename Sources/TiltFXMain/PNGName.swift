/// The name of a PNG file `tiltfx render` writes, checked before any rendering.
enum PNGName {
    /// What is wrong with `path` as the name of a PNG file to write, or `nil`.
    ///
    /// A name with another extension (`a.jpg`) would get PNG bytes under a name that promises something else, so it
    /// is refused rather than renamed (a silently changed name is a file the user cannot find); a name without an
    /// extension (`/dev/stdout`, `frame`) is taken as given.
    static func problem(_ path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        guard name[name.index(after: dot)...].lowercased() != "png" else { return nil }
        return "tiltfx writes PNG only; name the file with .png, e.g. \(name[..<dot]).png"
    }

    /// A PNG file's name inside the folder `path` names (`x/` → `x/frame.png`, `.` → `frame.png`).
    static func example(in path: String) -> String {
        var folder = path
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        return folder == "." || folder.isEmpty ? "frame.png" : folder == "/" ? "/frame.png" : folder + "/frame.png"
    }
}
