/// The --out of a frame sequence that names a video tiltfx does not write, checked before any rendering.
enum VideoName {
    /// Video extensions tiltfx does not write; a sequence under such a name would be a folder of PNGs, which is not
    /// what the name promises.
    static let unwritten: Set<String> = ["mkv", "avi", "mov", "ogv", "ogg", "m4v", "mpg", "mpeg", "webp", "apng"]

    /// Picture extensions: a sequence is a folder of PNG files, never one picture, so such a name would make a
    /// folder called `new.png`.
    static let pictures: Set<String> = ["png", "jpg", "jpeg"]

    /// What is wrong with `path` as the --out of a frame sequence, or `nil` (a folder, `.webm`, `.mp4`, `.gif`).
    static func problem(_ path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard !path.hasSuffix("/"), let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        if pictures.contains(ext) {
            return "--frames N writes N pictures into a folder (or a video), not one .\(ext) file; give a folder "
                + "(e.g. \(name[..<dot])/) or a video (\(name[..<dot]).webm, .mp4 or .gif), or drop --frames for one "
                + "frame"
        }
        guard unwritten.contains(ext) else { return nil }
        return "tiltfx writes videos as .webm (VP9 or VP8), .mp4 (H.264) or .gif; name the file "
            + "\(name[..<dot]).webm, or give a folder for PNG frames"
    }
}
