/// The --out of a frame sequence that names a video tiltfx does not write, checked before any rendering.
enum VideoName {
    /// Video extensions tiltfx does not write; a sequence under such a name would be a folder of PNGs, which is not
    /// what the name promises.
    static let unwritten: Set<String> = ["mkv", "avi", "mov", "ogv", "ogg", "m4v", "mpg", "mpeg", "webp", "apng"]

    /// What is wrong with `path` as the --out of a frame sequence, or `nil` (a folder, `.webm`, `.mp4`, `.gif`).
    static func problem(_ path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        guard unwritten.contains(ext) else { return nil }
        return "tiltfx writes videos as .webm (VP9 or VP8), .mp4 (H.264) or .gif; name the file "
            + "\(name[..<dot]).webm, or give a folder for PNG frames"
    }
}
