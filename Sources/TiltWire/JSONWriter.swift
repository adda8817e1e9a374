/// The one writer of the wire's JSON: a small, allocation-light builder of one flat-or-nested JSON object, fast
/// enough for the daemon's per-frame path and used for every message (the `status` answer included).
///
/// Numbers are written in Swift's shortest round-trip form. JSON has no NaN or infinity, so the convention for the
/// whole protocol is that a non-finite number is written as `null`; decoders on the wire accept `null` wherever a
/// number may be non-finite and read it back as NaN.
public struct JSONWriter: Sendable {
    private var text: String
    private var needsComma = false

    public init() {
        text = "{"
        text.reserveCapacity(512)
    }

    private mutating func key(_ k: String) {
        if needsComma { text += "," }
        needsComma = true
        text += "\""
        text += k
        text += "\":"
    }

    /// Appends a JSON string literal for `s`, escaping quotes, backslashes and control characters.
    public static func quote(_ s: String, into text: inout String) {
        text += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(u)
            }
        }
        text += "\""
    }

    static func number(_ v: Double, into text: inout String) {
        if v.isFinite {
            // Whole numbers print as "1.0"; keep them, JSON accepts them.
            text += v.description
        } else {
            text += "null"
        }
    }

    public mutating func field(_ k: String, _ v: String) {
        key(k)
        Self.quote(v, into: &text)
    }

    public mutating func field(_ k: String, _ v: Double) {
        key(k)
        Self.number(v, into: &text)
    }

    public mutating func field(_ k: String, _ v: Int) {
        key(k)
        text += String(v)
    }

    public mutating func field(_ k: String, _ v: UInt64) {
        key(k)
        text += String(v)
    }

    public mutating func field(_ k: String, _ v: Bool) {
        key(k)
        text += v ? "true" : "false"
    }

    /// A value of a closed set (an enum of the shared vocabulary), as its raw text.
    public mutating func field(_ k: String, _ v: some RawRepresentable<String>) {
        field(k, v.rawValue)
    }

    public mutating func null(_ k: String) {
        key(k)
        text += "null"
    }

    public mutating func field(_ k: String, _ v: [Double]) {
        array(k, v) { Self.number($0, into: &$1) }
    }

    public mutating func field(_ k: String, strings v: [String]) {
        array(k, v) { Self.quote($0, into: &$1) }
    }

    /// Appends an array of objects, each built by `build` from one element.
    public mutating func array<Element>(_ k: String, objects v: [Element], _ build: (inout JSONWriter, Element) -> Void)
    {
        array(k, v) { element, text in
            var inner = JSONWriter()
            build(&inner, element)
            text += inner.finish()
        }
    }

    private mutating func array<Element>(_ k: String, _ v: [Element], _ write: (Element, inout String) -> Void) {
        key(k)
        text += "["
        for (i, x) in v.enumerated() {
            if i > 0 { text += "," }
            write(x, &text)
        }
        text += "]"
    }

    /// Appends a nested object built by `build`.
    public mutating func object(_ k: String, _ build: (inout JSONWriter) -> Void) {
        key(k)
        var inner = JSONWriter()
        build(&inner)
        text += inner.finish()
    }

    /// Appends raw, already valid JSON as the value of `k`.
    public mutating func raw(_ k: String, json: String) {
        key(k)
        text += json
    }

    /// Closes the object and returns its text (no newline).
    public mutating func finish() -> String {
        text += "}"
        return text
    }
}
