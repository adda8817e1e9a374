/// What can go wrong with a media pipeline, each case saying what and what to do.
public enum MediaError: Error, Equatable, CustomStringConvertible {
    /// GStreamer itself would not start.
    case frameworkUnavailable(String)

    public var description: String {
        switch self {
        case .frameworkUnavailable(let reason):
            "GStreamer would not start: \(reason); install the packages scripts/bootstrap lists"
        }
    }
}
