import FoundationEssentials
import TiltClient
import TiltCore
import TiltDSU
import TiltSensors
import TiltWire

#if canImport(Glibc)
    import Glibc
#endif

/// `tilt bench dsu`: what tiltd's DSU server (`--dsu-server`, issue 31) costs and adds.
///
/// Starts a tiltd replaying a log in a loop, sped up to `rate` samples a second, serving DSU on a free loopback port.
/// One socket client watches every frame throughout. For `seconds` the daemon runs with that watcher alone (the
/// baseline), then for `seconds` more with a DSU subscriber as well (renewing every second, as emulators do). Measured:
/// data packets a second, the daemon's CPU in both windows, and the time from a sample entering tiltd (its frame's
/// `mono`) to its DSU packet arriving here, matched by the sample's time (the packet's microsecond timestamp), beside
/// the same for the socket's frames.
package struct DSUBenchmark: Sendable {
    package var rate: Double
    package var seconds: Double
    package var bin: String?
    package var log: String?

    package init(rate: Double, seconds: Double, bin: String?, log: String?) {
        self.rate = rate
        self.seconds = seconds
        self.bin = bin
        self.log = log
    }

    /// What was measured.
    package struct Report: Sendable {
        package var rate: Double
        package var seconds: Double
        package var logName: String
        /// Data packets received a second while subscribed.
        package var packetsPerSecond: Double
        /// Gaps in the packets' numbers: packets lost between tiltd and here.
        package var lostPackets: Int
        /// tiltd's CPU, percent of one core: with the watcher alone, and with the DSU subscriber too.
        package var cpuBaseline: Double?
        package var cpuWithDSU: Double?
        /// Sample → DSU packet and sample → socket frame, seconds.
        package var dsuLatencies: [Double]
        package var frameLatencies: [Double]

        /// The report as people read it.
        package var text: String {
            func ms(_ values: [Double], _ p: Double) -> String {
                guard !values.isEmpty else { return "n/a" }
                let sorted = values.sorted()
                return String(printf: "%.2f ms", sorted[min(sorted.count - 1, Int(p * Double(sorted.count)))] * 1000)
            }
            func percent(_ value: Double?) -> String { value.map { String(printf: "%.1f %%", $0) } ?? "n/a" }
            let added = cpuBaseline.flatMap { base in cpuWithDSU.map { $0 - base } }
            return """
                tilt bench dsu: \(logName) at \(Int(rate)) samples/s, \(Int(seconds)) s without and \(Int(seconds)) s \
                with one DSU subscriber
                packets              \(String(printf: "%.1f", packetsPerSecond))/s (\(lostPackets) lost)
                tiltd CPU            \(percent(cpuBaseline)) with one socket watcher, \(percent(cpuWithDSU)) with the \
                DSU subscriber too (\(added.map { String(printf: "%+.1f", $0) } ?? "n/a") points)
                sample → DSU packet  p50 \(ms(dsuLatencies, 0.5)), p99 \(ms(dsuLatencies, 0.99)) \
                (\(dsuLatencies.count) packets)
                sample → frame       p50 \(ms(frameLatencies, 0.5)), p99 \(ms(frameLatencies, 0.99)) (the socket, \
                for comparison)
                """
        }
    }

    /// Runs the daemon, the watcher and the subscriber.
    ///
    /// - Throws: ``BenchError`` when an input is missing, the log has no rate, or the daemon does not start or serve.
    package func run() throws -> Report {
        let log = try BenchInput.daemonLog(given: log)
        guard let logRate = (try? SensorLogReader(path: log))?.metadata["sampling_rate_hz"].flatMap(Double.init),
            logRate > 0
        else {
            throw BenchError(
                .input, "\(log) does not say its sampling_rate_hz, so it cannot be sped up to \(rate) samples/s")
        }
        let daemon = try BenchDaemon(
            tiltd: try BenchInput.tiltd(bin: bin), log: log,
            extra: ["--speed", String(rate / logRate), "--dsu-server", "127.0.0.1:0", "--no-power"])
        defer { daemon.stop() }
        guard let listen = try BenchDaemon.status(socketPath: daemon.socketPath).dsu?.listen,
            let port = Int(listen.split(separator: ":").last ?? "")
        else { throw BenchError(.daemon, "tiltd reports no DSU server; see \(daemon.logPath)") }
        let probe = ProcessProbe(pid: daemon.pid)

        let watcher = try DaemonSocket.connect(path: daemon.socketPath)
        defer { close(watcher) }
        _ = WatcherPool.sendAllBytes(watcher, ClientCommand.watch(enable: true, rate: 1000, raw: false).lineBytes)
        _ = fcntl(watcher, F_SETFL, fcntl(watcher, F_GETFL) | O_NONBLOCK)
        let udp = try DSUSocket(connectingTo: DSUEndpoint(host: "127.0.0.1", port: port))
        var state = Collected()

        // Warm up for a second, then the baseline, then the subscriber.
        pump(watcher: watcher, udp: nil, until: monotonicSeconds() + 1, into: &state)
        let base = (cpu: probe.cpuSeconds, at: monotonicSeconds())
        pump(watcher: watcher, udp: nil, until: base.at + seconds, into: &state)
        let mid = (cpu: probe.cpuSeconds, at: monotonicSeconds())
        state.measuring = true
        pump(watcher: watcher, udp: udp, until: mid.at + seconds, into: &state)
        let end = (cpu: probe.cpuSeconds, at: monotonicSeconds())
        // Packets still in flight for samples of the window, and the frames they match.
        pump(watcher: watcher, udp: udp, until: end.at + 0.2, into: &state, subscribe: false)

        func cpu(_ a: (cpu: Double?, at: Double), _ b: (cpu: Double?, at: Double)) -> Double? {
            guard let x = a.cpu, let y = b.cpu, b.at > a.at else { return nil }
            return (y - x) / (b.at - a.at) * 100
        }
        var dsuLatencies: [Double] = []
        for (stamp, arrived) in state.packets {
            if let mono = state.monoBySample[stamp] { dsuLatencies.append(arrived - mono) }
        }
        return Report(
            rate: rate, seconds: seconds, logName: PathText.name(of: log),
            packetsPerSecond: Double(state.packetCount) / max(end.at - mid.at, 1e-9), lostPackets: state.lost,
            cpuBaseline: cpu(base, mid), cpuWithDSU: cpu(mid, end), dsuLatencies: dsuLatencies,
            frameLatencies: state.frameLatencies)
    }

    /// What the poll loop has seen.
    private struct Collected {
        var measuring = false
        var lineBuffer: [UInt8] = []
        /// Frames' `mono` by their sample's time in microseconds, while measuring.
        var monoBySample: [UInt64: Double] = [:]
        var frameLatencies: [Double] = []
        /// Packets' sample times (µs) and arrival.
        var packets: [(UInt64, Double)] = []
        var packetCount = 0
        var lastNumber: UInt32?
        var lost = 0
        var renewed = -Double.infinity
    }

    /// Reads the watcher's frames and the DSU packets until `deadline`, renewing the subscription every second.
    private func pump(
        watcher: Int32, udp: DSUSocket?, until deadline: Double, into state: inout Collected, subscribe: Bool = true
    ) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while monotonicSeconds() < deadline {
            let now = monotonicSeconds()
            if let udp, subscribe, now - state.renewed >= 1 {
                udp.send(DSUPacket.encode(.dataRequest(.slot(0)), from: .client, id: 0x7469_6c74))
                state.renewed = now
            }
            var fds = [pollfd(fd: watcher, events: Int16(POLLIN), revents: 0)]
            if let udp { fds.append(pollfd(fd: udp.descriptor, events: Int16(POLLIN), revents: 0)) }
            guard poll(&fds, nfds_t(fds.count), 20) > 0 else { continue }
            if fds[0].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { recv(watcher, $0.baseAddress, $0.count, 0) }
                let arrived = monotonicSeconds()
                if n > 0 {
                    state.lineBuffer += buffer[..<n]
                    while let newline = state.lineBuffer.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = Array(state.lineBuffer[..<newline])
                        state.lineBuffer.removeSubrange(...newline)
                        guard state.measuring, case .attitude(let frame)? = try? ServerMessage.decode(line),
                            let mono = frame.mono
                        else { continue }
                        state.monoBySample[UInt64((frame.time * 1e6).rounded())] = mono
                        state.frameLatencies.append(arrived - mono)
                    }
                }
            }
            if let udp, fds.count > 1, fds[1].revents != 0 {
                while let datagram = udp.receive(timeoutMs: 0) {
                    let arrived = monotonicSeconds()
                    guard case .data(_, let number, let motion)? = try? DSUPacket.decode(datagram).message else {
                        continue
                    }
                    if let last = state.lastNumber, number > last &+ 1 { state.lost += Int(number - last - 1) }
                    state.lastNumber = number
                    guard subscribe else {
                        state.packets.append((motion.timestamp, arrived))
                        continue
                    }
                    state.packetCount += 1
                    state.packets.append((motion.timestamp, arrived))
                }
            }
        }
    }
}
