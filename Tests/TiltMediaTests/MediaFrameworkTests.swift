import Testing

@testable import TiltMedia

@Suite struct MediaFrameworkTests {
    @Test func startsAndFindsTheBaseElements() throws {
        try MediaFramework.start()
        #expect(MediaFramework.version.hasPrefix("GStreamer "))
        #expect(MediaFramework.hasElement("videotestsrc"))
        #expect(MediaFramework.hasElement("appsink"))
        #expect(!MediaFramework.hasElement("no-such-element-anywhere"))
    }
}
