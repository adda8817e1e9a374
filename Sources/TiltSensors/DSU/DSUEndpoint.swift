import TiltCore

/// A DSU server's address as people write it: `HOST[:PORT][/SLOT]` for `tiltd --dsu` (a name, an IPv4 address or a
/// bracketed IPv6 one; port 26760 unless given; the slot 0 … 3, or the first connected one), `ADDR[:PORT]` for
/// `tiltd --dsu-server`.
package struct DSUEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The host: a name or an address, without brackets.
    package var host: String
    package var port: Int
    /// The slot to read (`nil`: the first connected one). Never given for a server's own address.
    package var slot: UInt8?

    package init(host: String, port: Int = DSUPacket.defaultPort, slot: UInt8? = nil) {
        self.host = host
        self.port = port
        self.slot = slot
    }

    /// `HOST:PORT`, the host bracketed when it is an IPv6 address; `/SLOT` after it when one is chosen.
    package var description: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "\(shown):\(port)" + (slot.map { "/\($0)" } ?? "")
    }

    /// Whether the host is a loopback address or `localhost`: the only ones a server listens on without the user
    /// choosing to be reachable from the network.
    package var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Parses `text`; `allowsSlot` is false for a server's own address.
    ///
    /// - Throws: ``DSUAddressError`` saying what is wrong and what is expected.
    package static func parse(_ text: String, allowsSlot: Bool = true) throws(DSUAddressError) -> DSUEndpoint {
        let expected =
            allowsSlot ? "HOST[:PORT][/SLOT], e.g. 192.168.1.5:26760/0" : "ADDRESS[:PORT], e.g. 127.0.0.1:26760"
        var rest = text.drop(while: \.isWhitespace)
        while rest.last?.isWhitespace == true { rest = rest.dropLast() }
        var slot: UInt8?
        if let slash = rest.lastIndex(of: "/") {
            guard allowsSlot else {
                throw DSUAddressError(.syntax, "'\(text)' has a slot; a DSU server's address is \(expected)")
            }
            let slotText = rest[rest.index(after: slash)...]
            guard let number = UInt8(slotText), Int(number) < DSUPacket.slotCount else {
                throw DSUAddressError(.syntax, "'\(slotText)' in '\(text)' is not a slot: slots are 0 to 3")
            }
            slot = number
            rest = rest[..<slash]
        }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw DSUAddressError(.syntax, "'\(text)' opens an IPv6 address with '[' and never closes it")
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    throw DSUAddressError(.syntax, "'\(text)' is not \(expected)")
                }
                portText = after.dropFirst()
            }
        } else if rest.filter({ $0 == ":" }).count > 1 {
            throw DSUAddressError(
                .syntax, "'\(text)': write an IPv6 address in brackets, e.g. [::1]:\(DSUPacket.defaultPort)")
        } else if let colon = rest.firstIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty else { throw DSUAddressError(.syntax, "'\(text)' names no host; expected \(expected)") }
        var port = DSUPacket.defaultPort
        if let portText {
            // A server may take port 0: the kernel picks a free one, which `status.dsu.listen` tells.
            let lowest = allowsSlot ? 1 : 0
            guard let number = Int(portText), (lowest...65535).contains(number) else {
                throw DSUAddressError(
                    .syntax, "'\(portText)' in '\(text)' is not a port: ports are \(lowest) to 65535")
            }
            port = number
        }
        return DSUEndpoint(host: String(host), port: port, slot: slot)
    }
}

/// An address for DSU that cannot be used, and why.
package typealias DSUAddressError = TiltError<DSUAddressErrorKind>

/// Why an address for DSU cannot be used.
package enum DSUAddressErrorKind: String, Sendable, Hashable {
    /// Not `HOST[:PORT][/SLOT]`.
    case syntax
    /// The host name does not resolve.
    case resolve
    /// The socket cannot be made, bound or connected.
    case socket
}
