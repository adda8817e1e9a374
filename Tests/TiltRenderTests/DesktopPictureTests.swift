import Foundation
import Testing
import TiltGL
import TiltImage
import TiltRender
import TiltTestKit

/// The desktop's own picture for the depth scene: GNOME's settings as `gsettings get` prints them, slideshows, and a
/// picture GNOME ships (SVG, WebP) decoded as one still.
struct DesktopPictureTests {
    /// `gnome(read:fileText:)` over a table of `schema key` → printed value.
    private func gnome(_ settings: [String: String], files: [String: String] = [:]) -> Result<
        DesktopPicture, DesktopPicture.Problem
    > {
        DesktopPicture.gnome(read: { settings["\($0) \($1)"] }, fileText: { files[$0] })
    }

    private let background = "org.gnome.desktop.background"

    @Test func gvariantStringsAsGsettingsPrintsThem() {
        #expect(DesktopPicture.gvariantString("'file:///usr/share/a.webp'\n") == "file:///usr/share/a.webp")
        #expect(DesktopPicture.gvariantString("\"it's here\"") == "it's here")
        #expect(DesktopPicture.gvariantString(#"'a\'b\\c'"#) == #"a'b\c"#)
        #expect(DesktopPicture.gvariantString("''") == "")
        #expect(DesktopPicture.gvariantString("@as []") == nil)
        #expect(DesktopPicture.gvariantString("'unterminated") == nil)
    }

    @Test func fileURIsBecomePathsWithTheirEscapesDecoded() {
        #expect(
            DesktopPicture.path(fromURI: "file:///home/u/My%20Pictures/h%C3%BCgel.png")
                == "/home/u/My Pictures/hügel.png")
        #expect(DesktopPicture.path(fromURI: "file://localhost/srv/a.jpg") == "/srv/a.jpg")
        #expect(DesktopPicture.path(fromURI: "/srv/a.jpg") == "/srv/a.jpg")
        #expect(DesktopPicture.path(fromURI: "https://example.com/a.jpg") == nil)
        #expect(DesktopPicture.path(fromURI: "file:///bad%2") == nil)
        #expect(DesktopPicture.path(fromURI: "file:///bad%zz") == nil)
    }

    @Test func pictureOptionsBecomeFits() {
        #expect(DesktopPicture.fit(pictureOptions: "zoom") == .cover)
        #expect(DesktopPicture.fit(pictureOptions: "spanned") == .cover)
        #expect(DesktopPicture.fit(pictureOptions: "wallpaper") == .cover)
        #expect(DesktopPicture.fit(pictureOptions: "scaled") == .contain)
        #expect(DesktopPicture.fit(pictureOptions: "centered") == .contain)
        #expect(DesktopPicture.fit(pictureOptions: "stretched") == .stretch)
        #expect(DesktopPicture.fit(pictureOptions: "none") == nil)
    }

    @Test func theColourSchemeChoosesTheDarkPictureWhenThereIsOne() throws {
        var settings = [
            "\(background) picture-uri": "'file:///p/light.png'",
            "\(background) picture-uri-dark": "'file:///p/dark.png'",
            "\(background) picture-options": "'stretched'",
            "org.gnome.desktop.interface color-scheme": "'default'",
        ]
        #expect(
            try gnome(settings).get()
                == DesktopPicture(path: "/p/light.png", fit: .stretch, origin: "\(background) picture-uri"))
        settings["org.gnome.desktop.interface color-scheme"] = "'prefer-dark'"
        #expect(try gnome(settings).get().path == "/p/dark.png")
        #expect(try gnome(settings).get().origin == "\(background) picture-uri-dark")
        // A dark scheme with no dark picture keeps the light one; no color-scheme key (older GNOME) is the default.
        settings["\(background) picture-uri-dark"] = "''"
        #expect(try gnome(settings).get().path == "/p/light.png")
        settings["org.gnome.desktop.interface color-scheme"] = nil
        settings["\(background) picture-options"] = nil
        #expect(
            try gnome(settings).get()
                == DesktopPicture(path: "/p/light.png", fit: .cover, origin: "\(background) picture-uri"))
    }

    @Test func whatCannotBeUsedIsSaid() {
        func problem(_ settings: [String: String]) -> String? {
            guard case .failure(let problem) = gnome(settings) else { return nil }
            return problem.description
        }
        #expect(problem([:])?.contains("picture-uri cannot be read") == true)
        #expect(
            problem(["\(background) picture-uri": "'https://example.com/a.jpg'"])
                == "\(background) picture-uri is 'https://example.com/a.jpg', not a local file (file:///…)")
        #expect(
            problem(["\(background) picture-uri": "'file:///a.png'", "\(background) picture-options": "'none'"])
                == "GNOME shows no picture (picture-options is 'none')")
        #expect(problem(["\(background) picture-uri": "'file:///gone.xml'"])?.contains("cannot be read") == true)
    }

    @Test func aSlideshowGivesItsFirstPictureAtItsLargestSize() throws {
        let timed = """
            <background>
              <starttime><year>2011</year><hour>0</hour></starttime>
              <static><duration>1795.0</duration><file>/usr/share/backgrounds/morning &amp; dew.jpg</file></static>
              <transition><duration>5.0</duration><from>/a.jpg</from><to>/b.jpg</to></transition>
              <static><duration>1795.0</duration><file>/usr/share/backgrounds/noon.jpg</file></static>
            </background>
            """
        #expect(DesktopPicture.slideshowPicture(timed) == "/usr/share/backgrounds/morning & dew.jpg")
        let sized = """
            <background><static><file>
              <size width="1024" height="768">/p/small.jpg</size>
              <size width="3840" height="2160">/p/large.jpg</size>
              <size width="1920" height="1080">/p/mid.jpg</size>
            </file></static></background>
            """
        #expect(DesktopPicture.slideshowPicture(sized) == "/p/large.jpg")
        #expect(DesktopPicture.slideshowPicture("<background></background>") == nil)
        let found = try gnome(
            ["\(background) picture-uri": "'file:///s/show.xml'"], files: ["/s/show.xml": sized]
        ).get()
        #expect(found.path == "/p/large.jpg")
        #expect(found.origin == "\(background) picture-uri (the slideshow's first)")
    }

    @Test func gnomeIsKnownByTheCurrentDesktop() {
        #expect(DesktopPicture.isGNOME(currentDesktop: "GNOME"))
        #expect(DesktopPicture.isGNOME(currentDesktop: "ubuntu:GNOME"))
        #expect(DesktopPicture.isGNOME(currentDesktop: "GNOME-Classic:GNOME"))
        #expect(!DesktopPicture.isGNOME(currentDesktop: "KDE"))
        #expect(!DesktopPicture.isGNOME(currentDesktop: "sway"))
        #expect(!DesktopPicture.isGNOME(currentDesktop: nil))
    }

    /// GNOME's own backgrounds are SVG and WebP, which `--image` does not read: they are decoded once through
    /// GStreamer's GdkPixbuf decoder, as a still.
    @Test func anSVGPictureIsDecodedAsAStill() throws {
        let path = TestPaths.temporaryDirectory("desktop-picture").appendingPathComponent("halves.svg").path
        try """
        <svg xmlns="http://www.w3.org/2000/svg" width="64" height="32">
          <rect x="0" y="0" width="32" height="32" fill="#ff0000"/>
          <rect x="32" y="0" width="32" height="32" fill="#0000ff"/>
        </svg>
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let picture = try DesktopPicture(path: path, fit: .contain, origin: "test").load()
        #expect(picture.image.width == 64 && picture.image.height == 32)
        #expect(!picture.isMoving)
        #expect(picture.fit == .contain)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] {
            let p = (y * picture.image.width + x) * 4
            return Array(picture.image.pixels[p..<p + 3])
        }
        #expect(pixel(8, 16) == [255, 0, 0])
        #expect(pixel(56, 16) == [0, 0, 255])
    }

    @Test func aPictureThatDoesNotDecodeIsAnErrorNamingIt() throws {
        let path = TestPaths.temporaryDirectory("desktop-picture").appendingPathComponent("not-a-picture.webp").path
        try "hello".write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: (any Error).self) {
            try DesktopPicture(path: path, fit: .cover, origin: "t").load()
        }
        #expect("\(error!)".contains(path))
    }
}
