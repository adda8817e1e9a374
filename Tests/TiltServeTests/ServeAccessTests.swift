import NIOHTTP1
import Testing
import TiltServe

/// The token and `Origin` rules on their own.
struct ServeAccessTests {
    private let access = ServeAccess(
        token: "0123456789abcdef0123456789abcdef", host: "127.0.0.1", port: 8765,
        allowedOrigins: ["http://Localhost:3000/"])

    private func headers(origin: String?) -> HTTPHeaders {
        var headers = HTTPHeaders()
        if let origin { headers.add(name: "Origin", value: origin) }
        return headers
    }

    @Test func theTokenMustMatchExactly() {
        let none = headers(origin: nil)
        #expect(
            access.refusal(uri: "/motion?token=0123456789abcdef0123456789abcdef", headers: none, checksOrigin: true)
                == nil)
        #expect(
            access.refusal(uri: "/motion?a=1&token=0123456789abcdef0123456789abcdef", headers: none, checksOrigin: true)
                == nil)
        for uri in [
            "/motion", "/motion?token=", "/motion?token=0123456789abcdef0123456789abcde",
            "/motion?token=0123456789abcdef0123456789abcdef0", "/motion?tokens=0123456789abcdef0123456789abcdef",
            "/motion?token=0123456789ABCDEF0123456789ABCDEF",
        ] {
            #expect(access.refusal(uri: uri, headers: none, checksOrigin: true) == .token, "\(uri)")
        }
    }

    @Test func originsAreTheServersOwnAndTheAllowedOnes() {
        let uri = "/edit?token=0123456789abcdef0123456789abcdef"
        for allowed in [
            "http://127.0.0.1:8765", "http://localhost:8765", "http://localhost:3000", "HTTP://LOCALHOST:3000",
        ] {
            #expect(
                access.refusal(uri: uri, headers: headers(origin: allowed), checksOrigin: true) == nil, "\(allowed)")
        }
        for foreign in ["http://127.0.0.1:8766", "https://127.0.0.1:8765", "http://evil.example", "null"] {
            #expect(
                access.refusal(uri: uri, headers: headers(origin: foreign), checksOrigin: true) == .origin(foreign),
                "\(foreign)")
        }
        // Plain files and textures do not check the Origin (an <img> from the page sends none or its own).
        #expect(access.refusal(uri: uri, headers: headers(origin: "http://evil.example"), checksOrigin: false) == nil)
        #expect(
            ServeAccess.Refusal.origin("http://evil.example").message
                == "origin http://evil.example is not allowed; pass --allow-origin http://evil.example")
    }

    @Test func aPublicBindAllowsOnlyItsOwnAddress() {
        let wide = ServeAccess(token: "t", host: "192.168.1.20", port: 9000, allowedOrigins: [])
        #expect(wide.origins == ["http://192.168.1.20:9000"])
        #expect(ServeConfiguration.randomToken().count == 32)
        #expect(ServeConfiguration.randomToken() != ServeConfiguration.randomToken())
    }
}
