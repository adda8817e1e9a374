import Foundation
import Logging
import Testing
import TiltEffects

@testable import TiltServe

/// Why `tiltfx serve` cannot listen, as the system error a caller can switch on.
@Suite struct ServeStartErrorTests {
    @Test func aPortAnotherProgramListensOnIsAddressInUse() throws {
        // Another listener on a loopback port the system picks.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        try #require(bound)
        let web = FileManager.default.temporaryDirectory.path
        var configuration = ServeConfiguration(
            socketPath: "/tmp/tiltfx-none.sock", library: PresetLibrary(searchPaths: []), webDirectory: web)
        configuration.port = Int(UInt16(bigEndian: address.sin_port))
        #expect {
            let server = try ServeServer.start(configuration, logger: Logger(label: "test.serve"))
            server.close()
        } throws: { error in
            (error as? ServeStartError)?.errno == EADDRINUSE
                && "\(error)" == String(cString: strerror(EADDRINUSE))
        }
    }
}
