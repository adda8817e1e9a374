#if canImport(Glibc)
    import Glibc
#endif

// libFuzzer target: the daemon's inbound protocol path, LineSplitter then ClientCommand.decode.
//
// Built by scripts/fuzz from Sources/TiltWire's pure files (no NIO). The input's first byte picks the line length
// cap and how the rest is cut into reads, so one input exercises chunk boundaries as a socket would deliver them.
// Checked on every input:
// - the splitter's events equal a reference model (split the whole input on "\n"; a segment longer than the cap
//   is one `overlong`, else a line without one trailing "\r"), however the bytes are chunked;
// - the bytes the splitter holds never exceed cap + one read;
// - every decoded command re-encodes to a line that decodes to the same command.

/// A splitter event, reduced to what the reference model can predict.
enum Event: Equatable {
    case line([UInt8])
    case overlong
}

/// The reference: the rules applied to the whole input at once.
func referenceEvents(_ input: ArraySlice<UInt8>, maxLength: Int) -> [Event] {
    var events: [Event] = []
    var segments = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    if segments.last?.isEmpty == true { segments.removeLast() }
    for segment in segments {
        if segment.count > maxLength {
            events.append(.overlong)
        } else {
            events.append(.line(Array(segment.last == UInt8(ascii: "\r") ? segment.dropLast() : segment)))
        }
    }
    return events
}

/// The splitter fed `input` in reads of the given sizes (cycled), as LineFrameDecoder drives it.
func splitterEvents(_ input: ArraySlice<UInt8>, maxLength: Int, reads: [Int]) -> [Event] {
    var splitter = LineSplitter(maxLength: maxLength)
    var pending: [UInt8] = []
    var events: [Event] = []
    var offset = input.startIndex
    var readIndex = 0
    func apply(_ step: LineSplitter.Step) {
        switch step {
        case .line(let length, let consumed):
            check(length <= maxLength && length <= consumed && consumed <= pending.count, "bad line step")
            events.append(.line(Array(pending[..<length])))
            pending.removeFirst(consumed)
        case .overlong(let length, let consumed):
            check(length > maxLength && consumed <= pending.count, "bad overlong step")
            events.append(.overlong)
            pending.removeFirst(consumed)
        case .discard(let consumed):
            check(consumed > 0 && consumed <= pending.count, "bad discard step")
            pending.removeFirst(consumed)
        case .needMoreData:
            break
        }
    }
    while offset < input.endIndex {
        let size = max(1, reads[readIndex % reads.count])
        readIndex += 1
        let end = min(input.endIndex, offset + size)
        pending.append(contentsOf: input[offset..<end])
        offset = end
        while true {
            let step = splitter.next(pending)
            if step == .needMoreData { break }
            apply(step)
        }
        check(pending.count <= maxLength + size, "the splitter holds \(pending.count) bytes")
    }
    if let last = splitter.finish(pending) { apply(last) }
    return events
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let control = bytes.first else { return 0 }
    let input = bytes.dropFirst()
    // A small cap reaches the over-long paths; 0 is allowed (every non-empty line is too long).
    let maxLength = [0, 1, 8, 64, 512, WireProtocol.maxLineLength][Int(control & 0x7) % 6]
    let reads = [1 + Int(control >> 3), 1, 7, 3 + Int(control >> 5)]

    let expected = referenceEvents(input, maxLength: maxLength)
    let whole = splitterEvents(input, maxLength: maxLength, reads: [max(1, input.count)])
    let chunked = splitterEvents(input, maxLength: maxLength, reads: reads)
    check(whole == expected, "splitter (one read) disagrees with the reference")
    check(chunked == expected, "splitter (chunked reads \(reads)) disagrees with the reference")

    // Decode every line as the daemon does (it skips blank lines); the full input as one line too.
    var lines: [[UInt8]] = expected.compactMap { if case .line(let l) = $0 { return l } else { return nil } }
    lines.append(Array(input))
    for line in lines {
        do {
            let command = try ClientCommand.decode(line)
            let again = try ClientCommand.decode(Array(command.jsonLine.utf8))
            check(again == command, "\(command) re-encodes as \(command.jsonLine), which decodes as \(again)")
        } catch {
            check(!error.message.isEmpty, "an error without a message")
        }
    }
    return 0
}

/// Like `precondition`, but prints its message in optimised builds too, then aborts (libFuzzer saves the input).
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    let text = Array("fuzz check failed: \(message())\n".utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}
