import CGStreamer
import FoundationEssentials
import TiltCore

extension VideoSource {
    /// The sink element a pipeline description ends in, and the description without it; `nil` when its last
    /// element is no sink (or is not an element: caps, a reference to a named element).
    ///
    /// tilt appends `! videoconvert ! … ! appsink` to a `--source` description, which cannot link after a sink (it has
    /// no output). The last element is the text after the last `!` outside quotes; it is a sink when GStreamer's
    /// factory of that name says so in its class (`Generic/Sink`, `Sink/Video`). Needs GStreamer started.
    static func trailingSink(of description: String) -> (element: String, without: String)? {
        var quote: Character?
        var lastLink: String.Index?
        for index in description.indices {
            let c = description[index]
            if let open = quote {
                if c == open { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "!" {
                lastLink = index
            }
        }
        guard let lastLink else { return nil }
        let last = description[description.index(after: lastLink)...]
        guard let name = last.split(whereSeparator: \.isWhitespace).first.map(String.init),
            let factory = gst_element_factory_find(name)
        else { return nil }
        defer { tilt_gst_object_unref(UnsafeMutableRawPointer(factory)) }
        guard let klass = gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS),
            String(cString: klass).split(separator: "/").contains("Sink")
        else { return nil }
        let kept = description[..<lastLink].trimmingWhitespace
        return (name, kept)
    }
}
