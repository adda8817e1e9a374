/// How one channel's value is packed in an IIO scan, as the kernel describes it in `scan_elements/*_type`.
///
/// The text form is `[be|le]:[s|u]BITS/STORAGEBITS[XREPEAT]>>SHIFT`, e.g. `le:s16/16>>0` or `be:s12/16>>4`:
/// the value occupies `STORAGEBITS` bits in the given byte order; shifting right by `SHIFT` and keeping the low
/// `BITS` bits (sign-extended when `s`) gives the raw reading.
package struct IIOScanFormat: Hashable, Sendable, CustomStringConvertible {
    /// Whether the storage word is big-endian.
    package var isBigEndian: Bool
    /// Whether the value is two's-complement signed.
    package var isSigned: Bool
    /// Significant bits.
    package var bits: Int
    /// Bits of storage, a multiple of 8.
    package var storageBits: Int
    /// Right shift applied before masking.
    package var shift: Int
    /// How many values of this format follow each other (usually 1).
    package var repeatCount: Int

    /// Creates a format from its parts.
    package init(isBigEndian: Bool, isSigned: Bool, bits: Int, storageBits: Int, shift: Int, repeatCount: Int = 1) {
        self.isBigEndian = isBigEndian
        self.isSigned = isSigned
        self.bits = bits
        self.storageBits = storageBits
        self.shift = shift
        self.repeatCount = repeatCount
    }

    /// Parses the kernel's text form, e.g. `le:s16/16>>0`.
    ///
    /// - Throws: ``IIOError`` when the text is not in that form.
    package init(parsing text: String) throws(IIOError) {
        let t = text.trimmingIIOWhitespace()
        let bad = IIOError.badFormat(text)
        guard let colon = t.firstIndex(of: ":") else { throw bad }
        let endian = t[..<colon].lowercased()
        guard endian == "le" || endian == "be" else { throw bad }
        var rest = t[t.index(after: colon)...]
        guard let signChar = rest.first?.lowercased(), signChar == "s" || signChar == "u" else { throw bad }
        rest = rest.dropFirst()
        guard let slash = rest.firstIndex(of: "/"), let bits = Int(rest[..<slash]) else { throw bad }
        rest = rest[rest.index(after: slash)...]
        guard let gt = rest.firstIndex(of: ">"), rest[gt...].hasPrefix(">>") else { throw bad }
        var storagePart = rest[..<gt]
        var repeatCount = 1
        if let x = storagePart.firstIndex(where: { $0 == "X" || $0 == "x" }) {
            guard let r = Int(storagePart[storagePart.index(after: x)...]) else { throw bad }
            repeatCount = r
            storagePart = storagePart[..<x]
        }
        guard let storage = Int(storagePart), let shift = Int(rest[rest.index(gt, offsetBy: 2)...]) else { throw bad }
        guard bits > 0, bits <= 64, storage % 8 == 0, storage >= bits, storage <= 64, shift >= 0, shift < storage
        else { throw bad }
        self.init(
            isBigEndian: endian == "be", isSigned: signChar == "s", bits: bits, storageBits: storage, shift: shift,
            repeatCount: repeatCount)
    }

    /// The text form, as in `scan_elements/*_type`.
    package var description: String {
        "\(isBigEndian ? "be" : "le"):\(isSigned ? "s" : "u")\(bits)/\(storageBits)"
            + (repeatCount > 1 ? "X\(repeatCount)" : "") + ">>\(shift)"
    }

    /// Bytes one value occupies.
    package var byteCount: Int { storageBits / 8 }

    private var mask: UInt64 { bits >= 64 ? ~0 : (UInt64(1) << UInt64(bits)) - 1 }

    /// Decodes one value stored at `bytes` (at least ``byteCount`` bytes).
    package func decode(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        var word: UInt64 = 0
        let n = min(byteCount, bytes.count)
        for i in 0..<n {
            let byte = UInt64(bytes[i])
            if isBigEndian {
                word = (word << 8) | byte
            } else {
                word |= byte << UInt64(8 * i)
            }
        }
        word = (word >> UInt64(shift)) & mask
        if isSigned, bits < 64, word & (UInt64(1) << UInt64(bits - 1)) != 0 {
            word |= ~mask
        }
        return Int64(bitPattern: word)
    }

    /// Decodes one value from an array of bytes (for tests and tools).
    package func decode(_ bytes: [UInt8]) -> Int64 {
        bytes.withUnsafeBytes { decode($0) }
    }

    /// The smallest and largest raw values the format can hold.
    package var range: ClosedRange<Int64> {
        if isSigned {
            let half = bits >= 64 ? Int64.max : (Int64(1) << Int64(bits - 1)) - 1
            return (-half - 1)...half
        }
        return 0...(bits >= 63 ? Int64.max : (Int64(1) << Int64(bits)) - 1)
    }

    /// Whether `raw` sits at the end of the range, which a clipping sensor reports when it saturates.
    package func isSaturated(_ raw: Int64) -> Bool {
        if isSigned { return raw == range.lowerBound || raw == range.upperBound }
        return raw == range.upperBound
    }
}

extension StringProtocol {
    /// The text without the whitespace, newlines and NULs that sysfs and libiio leave around values.
    package func trimmingIIOWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace || c == "\0" { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace || c == "\0" { s = s.dropLast() }
        return String(s)
    }
}
