import FoundationEssentials
import NIOHTTP1
import TiltCore

/// Who may open a WebSocket or read a preset's files: the token and the `Origin` checks, one decision for the
/// upgrader and the HTTP answer that explains a refusal.
package struct ServeAccess: Sendable {
    /// The token the URL printed at start carries.
    package let token: String
    /// The origins allowed: the server's own and each `--allow-origin`.
    package let origins: Set<String>

    /// The access rules of a server bound to `host`:`port`.
    package init(token: String, host: String, port: Int, allowedOrigins: [String]) {
        self.token = token
        var origins = Set(allowedOrigins.map { Self.trimmed($0) })
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        origins.insert("http://\(bracketed):\(port)")
        // A wildcard bind prints a loopback URL, so a page opened from it has a loopback origin.
        if ServeConfiguration.isLoopback(host) || host == "0.0.0.0" || host == "::" {
            origins.insert("http://localhost:\(port)")
            origins.insert("http://127.0.0.1:\(port)")
        }
        self.origins = origins
    }

    /// Why a request is refused.
    package enum Refusal: Error, Sendable, Equatable {
        /// No token, or not this start's.
        case token
        /// A browser page of another origin.
        case origin(String)

        /// The body of the 403 answer.
        package var message: String {
            switch self {
            case .token: "missing or wrong token; open the URL tiltfx serve printed"
            case .origin(let origin): "origin \(origin) is not allowed; pass --allow-origin \(origin)"
            }
        }
    }

    /// Checks a request: its token always, its `Origin` when it has one and `checksOrigin` (WebSocket handshakes).
    /// - Returns: `nil` when allowed, else why not.
    package func refusal(uri: String, headers: HTTPHeaders, checksOrigin: Bool) -> Refusal? {
        if checksOrigin, let origin = headers.first(name: "origin"), !origins.contains(Self.trimmed(origin)) {
            return .origin(origin)
        }
        guard let given = Self.queryValue("token", in: uri), Self.constantTimeEqual(given, token) else {
            return .token
        }
        return nil
    }

    /// The path of a request URI, without its query.
    package static func path(of uri: String) -> Substring {
        uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }

    /// The value of `name` in the URI's query (`?a=1&token=…`), undecoded (tokens are hex).
    static func queryValue(_ name: String, in uri: String) -> String? {
        guard let query = uri.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first == Substring(name) { return parts.count > 1 ? String(parts[1]) : "" }
        }
        return nil
    }

    /// Compares without stopping at the first difference, so timing says nothing about the token.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static func trimmed(_ origin: String) -> String {
        var origin = origin.trimmingWhitespace
        while origin.hasSuffix("/") { origin.removeLast() }
        return origin.lowercased()
    }
}
