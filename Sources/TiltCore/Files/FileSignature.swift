#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a file is, from its first bytes: for an error that names what was given instead of echoing its bytes
/// (`tilt replay big.jpg`, `tiltd --replay ball.webm`).
public enum FileSignature: Sendable, Hashable, CustomStringConvertible {
    /// A folder, not a file.
    case folder
    /// gzip-compressed data (a `.csv.gz` log, or anything else compressed).
    case gzip
    /// Text: printable UTF-8 (and tabs, line breaks) in the bytes looked at, or an empty file.
    case text
    /// A known binary format: its name, e.g. "a JPEG picture", "a WebM or Matroska video".
    case known(String)
    /// Bytes that are not text and of no format named here.
    case binary

    /// Reads the first bytes of `path`; `nil` when it cannot be opened (`errno` says why).
    public init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            self = .folder
            return
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 512)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else { return nil }
        self.init(bytes: bytes.prefix(n))
    }

    /// What `bytes`, a file's first bytes, say it is.
    public init(bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(512))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        }
        let ascii = { (text: String) in Array(text.utf8) }
        if starts([0x1F, 0x8B]) {
            self = .gzip
        } else if let name = Self.formats.first(where: { starts($0.magic, at: $0.offset) })?.name {
            self = .known(name)
        } else if starts(ascii("RIFF")) && starts(ascii("WAVE"), at: 8) {
            self = .known("a WAV sound")
        } else if starts(ascii("RIFF")) && starts(ascii("WEBP"), at: 8) {
            self = .known("a WebP picture")
        } else if starts(ascii("RIFF")) && starts(ascii("AVI "), at: 8) {
            self = .known("an AVI video")
        } else if Self.isText(head) {
            self = .text
        } else {
            self = .binary
        }
    }

    /// Magic numbers: (offset, bytes, name).
    private static let formats: [(offset: Int, magic: [UInt8], name: String)] = [
        (0, [0x1A, 0x45, 0xDF, 0xA3], "a WebM or Matroska video"),
        (4, Array("ftyp".utf8), "an MP4 or QuickTime video"),
        (0, Array("OggS".utf8), "an Ogg audio or video file"),
        (0, Array("GIF8".utf8), "a GIF picture"),
        (0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG picture"),
        (0, [0xFF, 0xD8, 0xFF], "a JPEG picture"),
        (0, Array("%PDF".utf8), "a PDF document"),
        (0, [0x50, 0x4B, 0x03, 0x04], "a ZIP archive"),
        (0, [0x7F, 0x45, 0x4C, 0x46], "an ELF program or library"),
        (0, Array("BZh".utf8), "bzip2-compressed data"),
        (0, [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "xz-compressed data"),
        (0, [0x28, 0xB5, 0x2F, 0xFD], "zstd-compressed data"),
        (257, Array("ustar".utf8), "a tar archive"),
    ]

    /// Whether `bytes` read as text: valid UTF-8 (a character cut at the end allowed) without control characters
    /// other than tab, line feed and carriage return.
    private static func isText(_ bytes: [UInt8]) -> Bool {
        if bytes.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0x7F }) {
            return false
        }
        // Up to three bytes at the end may be the start of a character the read cut.
        for cut in 0...min(3, bytes.count) {
            let tail = bytes.suffix(cut)
            // Only the start of a character may be cut: a lead byte, then continuation bytes.
            if cut > 0, !(tail.first! >= 0xC0 && tail.dropFirst().allSatisfy { $0 & 0xC0 == 0x80 }) { continue }
            if String(validating: bytes.dropLast(cut), as: UTF8.self) != nil { return true }
        }
        return false
    }

    public var description: String {
        switch self {
        case .folder: "a folder"
        case .gzip: "gzip-compressed data"
        case .text: "text"
        case .known(let name): name
        case .binary: "binary data (not text)"
        }
    }
}
