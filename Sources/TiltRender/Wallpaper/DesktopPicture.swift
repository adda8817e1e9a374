import FoundationEssentials
import TiltCore
import TiltGL
import TiltImage
import TiltMedia

/// The picture the desktop already shows as its background, for the depth scene (`Presets/depth`): a user who starts
/// `tiltfx wallpaper` keeps the wallpaper they chose, and it gains depth.
///
/// On GNOME it is `org.gnome.desktop.background picture-uri`, or `picture-uri-dark` when
/// `org.gnome.desktop.interface color-scheme` is `prefer-dark`, filled as `picture-options` says; a slideshow (GNOME's
/// timed XML) gives its first picture. Other desktops name theirs through `--image` or `wallpaper.conf`.
package struct DesktopPicture: Sendable, Hashable {
    /// The picture file.
    package var path: String
    /// How it fills each output, from the desktop's own setting.
    package var fit: PictureContent.Fit
    /// Where it was found, for the log: `org.gnome.desktop.background picture-uri`.
    package var origin: String

    /// A picture at `path`, filled by `fit`, found at `origin`.
    package init(path: String, fit: PictureContent.Fit, origin: String) {
        (self.path, self.fit, self.origin) = (path, fit, origin)
    }

    /// Why the desktop's picture cannot be used: said as a warning, and the depth scene draws its own art.
    package struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// What went wrong, for a person.
        package var description: String
        /// A problem said by `description`.
        package init(_ description: String) { self.description = description }
    }

    /// The desktop's background schema.
    static let backgroundSchema = "org.gnome.desktop.background"

    /// GNOME's background, read through `read(schema, key)` (`gsettings get`'s output, or `nil` when the key cannot be
    /// read) and `fileText(path)` (a slideshow's XML).
    package static func gnome(
        read: (String, String) -> String?, fileText: (String) -> String?
    ) -> Result<DesktopPicture, Problem> {
        let dark = read("org.gnome.desktop.interface", "color-scheme").flatMap(gvariantString) == "prefer-dark"
        let options = read(backgroundSchema, "picture-options").flatMap(gvariantString) ?? "zoom"
        guard let fit = fit(pictureOptions: options) else {
            return .failure(Problem("GNOME shows no picture (picture-options is 'none')"))
        }
        var keys = ["picture-uri"]
        if dark { keys.insert("picture-uri-dark", at: 0) }
        for key in keys {
            guard let raw = read(backgroundSchema, key) else { continue }
            guard let uri = gvariantString(raw), !uri.isEmpty else { continue }
            let origin = "\(backgroundSchema) \(key)"
            guard let path = path(fromURI: uri) else {
                return .failure(Problem("\(origin) is '\(uri)', not a local file (file:///…)"))
            }
            guard path.lowercased().hasSuffix(".xml") else {
                return .success(DesktopPicture(path: path, fit: fit, origin: origin))
            }
            guard let xml = fileText(path) else {
                return .failure(Problem("\(origin) names the slideshow \(path), which cannot be read"))
            }
            guard let first = slideshowPicture(xml) else {
                return .failure(Problem("\(origin) names the slideshow \(path), which names no picture"))
            }
            return .success(DesktopPicture(path: first, fit: fit, origin: "\(origin) (the slideshow's first)"))
        }
        return .failure(
            Problem(
                "\(backgroundSchema) picture-uri cannot be read (is gsettings installed, and this a GNOME session?)"))
    }

    /// GNOME's background as `gsettings get` prints it on this machine.
    package static func gnome() -> Result<DesktopPicture, Problem> {
        gnome(
            read: { schema, key in
                guard let out = ProgramOutput.run("gsettings", ["get", schema, key]), out.status == 0 else {
                    return nil
                }
                return out.stdout
            },
            fileText: { path in (try? ImageDecoder.readFile(path)).map { String(decoding: $0, as: UTF8.self) } })
    }

    /// Whether the desktop named by `$XDG_CURRENT_DESKTOP` (a `:`-separated list, e.g. `ubuntu:GNOME`) is GNOME.
    package static func isGNOME(currentDesktop: String?) -> Bool {
        (currentDesktop ?? "").split(separator: ":").contains { $0.uppercased() == "GNOME" }
    }

    /// The text of a GVariant string as `gsettings get` prints it (`'file:///a%20b.png'`, `"it's"`); `nil` when the
    /// text is not a quoted string.
    package static func gvariantString(_ text: String) -> String? {
        let trimmed = text.trimmingWhitespace
        guard let quote = trimmed.first, quote == "'" || quote == "\"", trimmed.count >= 2, trimmed.last == quote
        else { return nil }
        var out = ""
        var escaped = false
        for c in trimmed.dropFirst().dropLast() {
            if escaped {
                switch c {
                case "n": out.append("\n")
                case "t": out.append("\t")
                default: out.append(c)
                }
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// The local path of a `file://` URI, its `%XX` escapes decoded; a bare absolute path is taken as it is. `nil` for
    /// any other scheme or a malformed escape.
    package static func path(fromURI uri: String) -> String? {
        if uri.hasPrefix("/") { return uri }
        var rest: Substring
        if uri.hasPrefix("file:///") {
            rest = uri.dropFirst("file://".count)
        } else if uri.hasPrefix("file://localhost/") {
            rest = uri.dropFirst("file://localhost".count)
        } else {
            return nil
        }
        var bytes: [UInt8] = []
        var utf8 = rest.utf8[...]
        while let byte = utf8.first {
            utf8 = utf8.dropFirst()
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        }
        rest = Substring(String(decoding: bytes, as: UTF8.self))
        return String(rest)
    }

    /// How the picture fills an output for GNOME's `picture-options`; `nil` for `none` (no picture).
    package static func fit(pictureOptions: String) -> PictureContent.Fit? {
        switch pictureOptions {
        case "none": nil
        case "scaled", "centered": .contain
        case "stretched": .stretch
        // zoom, spanned, and tiled ("wallpaper", drawn here once, filling)
        default: .cover
        }
    }

    /// The first picture a GNOME slideshow XML names: the first `<file>`, and of its `<size>` variants the largest.
    package static func slideshowPicture(_ xml: String) -> String? {
        guard let file = between(xml, "<file>", "</file>") else { return nil }
        guard file.contains("<size") else { return decodeEntities(file.trimmingWhitespace) }
        var best: (area: Int, path: String)?
        var rest = Substring(file)
        while let open = rest.firstRange(of: "<size"), let close = rest[open.upperBound...].firstRange(of: ">"),
            let end = rest[close.upperBound...].firstRange(of: "</size>")
        {
            let attributes = rest[open.upperBound..<close.lowerBound]
            let area = (attribute("width", in: attributes) ?? 0) * (attribute("height", in: attributes) ?? 0)
            let path = decodeEntities(rest[close.upperBound..<end.lowerBound].trimmingWhitespace)
            if best == nil || area > best!.area { best = (area, path) }
            rest = rest[end.upperBound...]
        }
        return best?.path
    }

    private static func between(_ text: String, _ open: String, _ close: String) -> String? {
        guard let start = text.firstRange(of: open), let end = text[start.upperBound...].firstRange(of: close) else {
            return nil
        }
        return String(text[start.upperBound..<end.lowerBound])
    }

    private static func attribute(_ name: String, in text: Substring) -> Int? {
        guard let start = text.firstRange(of: name + "=\"") else { return nil }
        return Int(text[start.upperBound...].prefix { $0.isNumber })
    }

    private static func decodeEntities(_ text: String) -> String {
        text.replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&quot;", with: "\"")
            .replacing("&apos;", with: "'").replacing("&amp;", with: "&")
    }

    /// The picture, decoded once: PNG and JPEG as `--image` reads them; anything else (GNOME's own backgrounds are
    /// WebP and SVG) as one still through GStreamer's GdkPixbuf decoder, never as a video.
    /// - Throws: `ImageError` naming the file and what went wrong.
    package func load() throws(ImageError) -> PictureContent {
        if let head = try? ImageDecoder.readFile(path).prefix(16),
            (try? ImageDecoder.format(of: Array(head), path: path)) != nil
        {
            return try PictureContent.load(path: path, fit: fit)
        }
        let quoted = "\"" + path.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
        // A pipeline plays live: its one frame is waited for, then the pipeline is stopped.
        let source = VideoSource(.pipeline("filesrc location=\(quoted) ! gdkpixbufdec"))
        defer { source.close() }
        do {
            try source.open()
            guard let first = try source.latestFrame() else {
                throw ImageError(.damaged, path: path, reason: "GStreamer's GdkPixbuf decoder gave no picture")
            }
            let image = DecodedImage(width: first.width, height: first.height, pixels: first.pixels)
            return PictureContent(image: image, path: path, fit: fit)
        } catch let error as ImageError {
            throw error
        } catch {
            throw ImageError(
                .unknownFormat, path: path,
                reason: "GStreamer's GdkPixbuf decoder could not read it (\(error)); for WebP install "
                    + "webp-pixbuf-loader, for SVG librsvg2-common")
        }
    }
}
