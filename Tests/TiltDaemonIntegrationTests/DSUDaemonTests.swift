import Foundation
import Testing
import TiltCore
import TiltSensors
import TiltTestKit
import TiltWire

/// Issue 31's DSU parts against real tiltd processes: one replaying a log with `--dsu-server` feeding a second with
/// `--dsu`, a UDP client in the test subscribing as an emulator does, and hostile datagrams.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct DSUDaemonTests {
    /// A UDP socket of the test's own, bound to `host` (loopback has all of 127/8), sending to one server.
    final class UDPClient {
        let fd: Int32
        var server = sockaddr_in()

        init(bind host: String = "127.0.0.1", server port: Int) throws {
            fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
            guard fd >= 0 else { throw TestError("socket: \(String(cString: strerror(errno)))") }
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, host, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw TestError("bind \(host): \(String(cString: strerror(errno)))") }
            server.sin_family = sa_family_t(AF_INET)
            server.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, "127.0.0.1", &server.sin_addr)
        }

        deinit { close(fd) }

        func send(_ bytes: [UInt8]) {
            var to = server
            _ = withUnsafePointer(to: &to) { address in
                address.withMemoryRebound(to: sockaddr.self, capacity: 1) { a in
                    bytes.withUnsafeBytes {
                        sendto(fd, $0.baseAddress, $0.count, 0, a, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
        }

        /// Every datagram that arrives before `end`.
        func receive(until end: Deadline) -> [[UInt8]] {
            var got: [[UInt8]] = []
            while true {
                let left = end.remaining
                guard left > 0 else { return got }
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, Int32(max(1, left * 1000))) > 0 else { return got }
                var buffer = [UInt8](repeating: 0, count: 2048)
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n > 0 { got.append(Array(buffer.prefix(n))) }
            }
        }
    }

    /// A daemon replaying the bundled log in a loop, serving DSU on a free loopback port, and that port.
    static func server(in dir: URL) throws -> (DaemonProcess, client: LineSocket, port: Int) {
        let daemon = try DaemonProcess.replaying(
            ["--loop", "--no-power", "--dsu-server", "127.0.0.1:0"], in: dir, socket: "a.sock")
        let (client, _) = try daemon.greetedClient()
        let status = try #require(try client.status())
        let dsu = try #require(status["dsu"] as? [String: Any], "status has no dsu: \(status)")
        let listen = try #require(dsu["listen"] as? String)
        let port = try #require(Int(listen.split(separator: ":").last ?? ""), "listen: \(listen)")
        return (daemon, client, port)
    }

    static func dsuStatus(_ client: LineSocket) throws -> (sensor: String, dsu: [String: Any]) {
        let status = try #require(try client.status())
        return (status["sensor"] as? String ?? "", status["dsu"] as? [String: Any] ?? [:])
    }

    @Test("a tiltd reading another's --dsu-server converges to its gravity, within a few degrees")
    func secondDaemonFollowsTheFirst() throws {
        let dir = TestPaths.temporaryDirectory("dsu-pair")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (first, firstClient, port) = try Self.server(in: dir)
        let second = try DaemonProcess(
            socketPath: DaemonProcess.temporarySocket(in: dir, name: "b.sock"),
            arguments: ["--dsu", "127.0.0.1:\(port)/0", "--no-power"])
        let (secondClient, hello) = try second.greetedClient()
        #expect(((hello["sensors"] as? [[String: Any]])?.first?["name"] as? String) == "dsu:127.0.0.1:\(port)/0")
        try firstClient.send(#"{"cmd":"watch","rate":50}"#)
        try secondClient.send(#"{"cmd":"watch","rate":50}"#)
        var frames: [[(at: Double, gravity: Vector3, source: String)]] = [[], []]
        let start = Date()
        while Date().timeIntervalSince(start) < 5 {
            for (i, client) in [firstClient, secondClient].enumerated() {
                for line in client.readLines(until: Deadline(seconds: 0.02)) {
                    if case .attitude(let frame)? = try? ServerMessage.decode(Array(line.utf8)) {
                        // `mono`: when the sample reached each daemon, on the machine's one monotonic clock.
                        frames[i].append((frame.mono ?? .nan, frame.gravity, frame.source))
                    }
                }
            }
        }
        #expect(frames[1].count > 100, "the second daemon's frames: \(frames[1].count); its log:\n\(second.log)")
        #expect(frames[1].allSatisfy { $0.source == "dsu:127.0.0.1:\(port)/0" })
        // After two seconds to converge, each frame of the second against the first's nearest in arrival time (the
        // same sample reaches the second a packet's trip later).
        var angles: [Double] = []
        let converged = (frames[1].first?.at ?? 0) + 2
        for frame in frames[1] where frame.at > converged {
            guard let nearest = frames[0].min(by: { abs($0.at - frame.at) < abs($1.at - frame.at) }),
                abs(nearest.at - frame.at) < 0.05,
                let a = frame.gravity.normalized, let b = nearest.gravity.normalized
            else { continue }
            angles.append(acos(min(1, max(-1, a.dot(b)))) * 180 / .pi)
        }
        angles.sort()
        #expect(angles.count > 50)
        let median = angles.isEmpty ? .infinity : angles[angles.count / 2]
        let worst = angles.last ?? .infinity
        #expect(median < 2, "median angle between the two gravities: \(median)°")
        #expect(worst < 5, "worst angle: \(worst)°")
        let (sensor, dsu) = try Self.dsuStatus(firstClient)
        #expect(sensor == "active")
        #expect(dsu["subscribers"] as? Int == 1, "\(dsu)")
        #expect((dsu["sent"] as? Int ?? 0) > 100, "\(dsu)")
        #expect(second.stop() == 0)
        #expect(first.stop() == 0)
    }

    @Test("an emulator's subscription runs the sensor with no socket watcher, and lapses 5 s after its last request")
    func subscriptionIsAWatcher() throws {
        let dir = TestPaths.temporaryDirectory("dsu-sub")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (daemon, client, port) = try Self.server(in: dir)
        #expect(try Self.dsuStatus(client).sensor == "idle")
        let emulator = try UDPClient(server: port)
        emulator.send(DSUPacket.encode(.infoRequest(slots: [0, 1]), from: .client, id: 3))
        emulator.send(DSUPacket.encode(.dataRequest(.slot(0)), from: .client, id: 3))
        let datagrams = emulator.receive(until: Deadline(seconds: 1.5))
        let messages = datagrams.compactMap { try? DSUPacket.decode($0).message }
        #expect(messages.contains(.info(DSUPacket.Slot(slot: 0, mac: [0x02, 0x74, 0x69, 0x6c, 0x74, 0x00]))))
        #expect(messages.contains(.info(.empty(1))))
        var numbers: [UInt32] = []
        var magnitudes: [Float] = []
        for case .data(let slot, let number, let motion) in messages {
            #expect(slot.slot == 0)
            numbers.append(number)
            magnitudes.append((motion.accel * motion.accel).sum().squareRoot())
        }
        #expect(numbers.count > 100, "data packets in 1.5 s: \(numbers.count); log:\n\(daemon.log)")
        #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count)
        // The replayed device lies still or turns slowly: about 1 g.
        #expect(magnitudes.allSatisfy { $0 > 0.8 && $0 < 1.2 }, "\(magnitudes.prefix(5))")
        let (sensor, dsu) = try Self.dsuStatus(client)
        #expect(sensor == "active")
        #expect(dsu["subscribers"] as? Int == 1)
        // Stop asking: within 5 s and the second between expiries, nobody is subscribed and the sensor sleeps.
        let deadline = Deadline(seconds: 12)
        var last = try Self.dsuStatus(client)
        while !deadline.hasPassed, last.sensor != "idle" || last.dsu["subscribers"] as? Int != 0 {
            Thread.sleep(forTimeInterval: 0.25)
            last = try Self.dsuStatus(client)
        }
        #expect(last.sensor == "idle", "\(last)")
        #expect(last.dsu["subscribers"] as? Int == 0)
        #expect(daemon.stop() == 0)
    }

    @Test("a DSU port in use, or a bad address, stops tiltd with a message saying what to do")
    func badServerAddress() throws {
        let dir = TestPaths.temporaryDirectory("dsu-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A port taken: the test's own UDP socket on a free port.
        let taken = try UDPClient(bind: "127.0.0.1", server: 9)
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(taken.fd, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let socket = DaemonProcess.temporarySocket(in: dir)
        let inUse = try ChildProcess.run(
            TestPaths.executable("tiltd"),
            [
                "--replay", TestPaths.broadExcerpt, "--socket", socket, "--no-power", "--log-format", "plain",
                "--dsu-server", "127.0.0.1:\(port)",
            ], timeout: 30)
        #expect(inUse.status == 1)
        #expect(inUse.stderr.contains("cannot serve DSU on 127.0.0.1:\(port): the port is in use"), "\(inUse.stderr)")
        #expect(inUse.stderr.contains("choose another --dsu-server address"), "\(inUse.stderr)")
        let slot = try ChildProcess.run(
            TestPaths.executable("tiltd"), ["--dsu-server", "127.0.0.1:26760/0", "--socket", socket], timeout: 30)
        #expect(slot.status == 64)
        #expect(slot.stderr.hasPrefix("error: --dsu-server: expected ADDRESS[:PORT]"), "\(slot.stderr)")
        let badSlot = try ChildProcess.run(
            TestPaths.executable("tiltd"), ["--dsu", "phone:26760/7", "--socket", socket], timeout: 30)
        #expect(badSlot.status == 64)
        #expect(badSlot.stderr.hasPrefix("error: --dsu: expected HOST[:PORT][/SLOT]"), "\(badSlot.stderr)")
    }

    @Test("hostile datagrams are dropped and counted by reason; a flood is limited without hurting another client")
    func hostileInput() throws {
        let dir = TestPaths.temporaryDirectory("dsu-hostile")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (daemon, client, port) = try Self.server(in: dir)
        let attacker = try UDPClient(bind: "127.0.0.1", server: port)
        var crc = DSUPacket.encode(.versionRequest, from: .client, id: 1)
        crc[12] ^= 1
        var version = DSUPacket.encode(.versionRequest, from: .client, id: 1)
        version[4] = 0
        for datagram in [
            [UInt8](), Array("DSUC".utf8), Array("GET / HTTP/1.1\r\nHost: tilt\r\n\r\n".utf8), crc, version,
            Array(DSUPacket.encode(.infoRequest(slots: [0]), from: .client, id: 1).prefix(22)),
            DSUPacket.encode(.versionResponse(1001), from: .server, id: 1),
        ] {
            attacker.send(datagram)
        }
        // A flood: 1000 requests over about a second, at 20 times the rate one host may send.
        let flood = Date()
        for i in 0..<1000 {
            attacker.send(DSUPacket.encode(.versionRequest, from: .client, id: 1))
            if i % 10 == 9 { usleep(10_000) }
        }
        let floodSeconds = Date().timeIntervalSince(flood)
        // Another host (loopback's 127.0.0.2) is answered and served all the while.
        let emulator = try UDPClient(bind: "127.0.0.2", server: port)
        emulator.send(DSUPacket.encode(.versionRequest, from: .client, id: 2))
        emulator.send(DSUPacket.encode(.dataRequest(.all), from: .client, id: 2))
        let answers = emulator.receive(until: Deadline(seconds: 1)).compactMap { try? DSUPacket.decode($0) }
        #expect(answers.contains { $0.message == .versionResponse(1001) })
        #expect(answers.filter { if case .data = $0.message { true } else { false } }.count > 50)
        // The attacker was answered no more than its burst and its rate over the flood allow.
        let answered = attacker.receive(until: Deadline(seconds: 0.5)).count
        #expect(Double(answered) <= 100 + 50 * (floodSeconds + 1.5) + 7, "answered \(answered) in \(floodSeconds) s")
        let (_, dsu) = try Self.dsuStatus(client)
        let dropped = try #require(dsu["dropped"] as? [String: Int], "\(dsu)")
        // Datagrams over the rate are dropped before they are read, so each kind above is counted only when it was
        // within the rate: they were sent first, with the bucket full.
        #expect(dropped["truncated"] == 3, "\(dropped)")
        #expect(dropped["badMagic"] == 1 && dropped["crc"] == 1 && dropped["version"] == 1, "\(dropped)")
        #expect(dropped["malformed"] == 1, "\(dropped)")
        #expect((dropped["rateLimited"] ?? 0) > 500, "\(dropped)")
        let hello = try daemon.greetedClient().hello
        #expect(hello["class"] as? String == "hello", "the socket still serves")
        #expect(daemon.stop() == 0)
    }
}
