#if canImport(Glibc)
    import Foundation
    import Glibc
    import Testing
    import TiltClient
    import TiltCore
    import TiltWire

    /// The load-test pool against a hand-driven server: frames counted, latency from `mono`, drops from `status`.
    @Suite
    struct WatcherPoolTests {
        /// A listening socket in a fresh folder, its path, and the server ends of `count` pool clients.
        static func serve(_ pool: WatcherPool, clients count: Int) throws -> (listener: Int32, peers: [Int32]) {
            let dir = try DaemonSocketTests.folder()
            let path = dir + "/tiltd.sock"
            let listener = try DaemonSocketTests.bound(path, listen: true)
            try pool.connect(count: count, path: path)
            let peers = (0..<count).map { _ in accept(listener, nil, nil) }
            try #require(peers.allSatisfy { $0 >= 0 })
            try? FileManager.default.removeItem(atPath: dir)
            return (listener, peers)
        }

        static func send(_ text: String, to fd: Int32) {
            #expect(WatcherPool.sendAllBytes(fd, Array(text.utf8)))
        }

        @Test("frames split across writes are counted while measuring, with latency from their mono time")
        func framesAndLatency() throws {
            let pool = WatcherPool()
            let (listener, peers) = try Self.serve(pool, clients: 2)
            defer {
                pool.reset()
                for fd in peers + [listener] { close(fd) }
            }
            // Before measuring, a frame only marks the client as seen.
            Self.send(#"{"class":"attitude","seq":0,"mono":1}"# + "\n", to: peers[0])
            pool.run(until: monotonicSeconds() + 5) { $0.clientsWithFrames == 1 }
            #expect(pool.clients.map(\.seen) == [true, false])
            #expect(pool.clients[0].frames == 0)

            pool.measuring = true
            let sent = monotonicSeconds() - 0.25
            let line = #"{"class":"attitude","seq":1,"mono":\#(sent),"tilt":[0,0]}"# + "\n"
            let cut = line.index(line.startIndex, offsetBy: 20)
            Self.send(#"{"class":"hello","protocol":1}"# + "\n" + String(line[..<cut]), to: peers[1])
            pool.run(until: monotonicSeconds() + 0.1)
            #expect(pool.clients[1].frames == 0, "half a line is not a frame")
            Self.send(String(line[cut...]) + line, to: peers[1])
            pool.run(until: monotonicSeconds() + 5) { $0.clients[1].frames == 2 }
            #expect(pool.clients.map(\.frames) == [0, 2])
            #expect(pool.latencies.count == 2)
            #expect(pool.latencies.allSatisfy { $0 >= 0.25 && $0 < 5 }, "\(pool.latencies)")
        }

        @Test("commands reach every client; status answers give drops; a closed peer closes its client")
        func commandsStatusAndClose() throws {
            let pool = WatcherPool()
            let (listener, peers) = try Self.serve(pool, clients: 2)
            defer {
                pool.reset()
                for fd in peers + [listener] { close(fd) }
            }
            pool.sendAll(.status)
            var received = [UInt8](repeating: 0, count: 64)
            let n = recv(peers[0], &received, received.count, 0)
            #expect(Array(received[..<max(n, 0)]) == ClientCommand.status.lineBytes)

            // A whole `status` answer, as tiltd writes it: the pool reads it as any client does.
            let status = StatusReport(
                daemon: "tiltd 0.1.0", protocol: 1, uptime: 1, source: "replay:a.csv", sensor: .active, clients: 2,
                watchers: 2, requestedRate: 60, samples: 10, rejected: 0, lastRejection: nil, seq: 9,
                gyroBias: [0, 0, 0], calibration: "none", calibrated: false, power: WirePower(.mains),
                client: .init(
                    id: 1, watching: true, rate: 60, raw: false, sent: 3, dropped: 7, errors: 0, uid: nil, pid: nil))
            Self.send(ServerMessage.status(status).jsonLine + "\n", to: peers[0])
            shutdown(peers[1], Int32(SHUT_RDWR))
            pool.run(until: monotonicSeconds() + 5) { $0.clients[0].dropped != nil && !$0.clients[1].open }
            #expect(pool.clients[0].dropped == 7)
            #expect(pool.clients.map(\.open) == [true, false])
        }
    }
#endif
