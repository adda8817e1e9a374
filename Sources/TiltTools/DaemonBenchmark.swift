import FoundationEssentials
import TiltClient
import TiltCore
import TiltSensors
import TiltWire

#if canImport(Glibc)
    import Glibc
#endif

/// `tilt bench daemon`'s measurement: starts a tiltd replaying a log, serves it N watchers from this one process,
/// and measures delivery, latency, CPU and memory, then optionally connection churn.
///
/// ```swift
/// let report = try DaemonBenchmark(clients: 10, rate: 60, seconds: 10, bin: folder, log: log).run()
/// print(report.text)
/// ```
package struct DaemonBenchmark: Sendable {
    /// Watching clients.
    package var clients: Int
    /// Frames per second each client asks for.
    package var rate: Double
    /// Length of the measurement window, seconds.
    package var seconds: Double
    /// The folder of the tiltd to run (`nil`: this executable's, see ``BenchInput/tiltd(bin:)``).
    package var bin: String?
    /// The sensor log it replays in a loop (`nil`: the bundled one, see ``BenchInput/daemonLog(given:)``).
    package var log: String?
    /// Connections to make and drop after the measurement; 0 for none.
    package var churn: Int

    /// A benchmark of `clients` watchers at `rate` Hz for `seconds`, on `tiltd` replaying `log`, then `churn`
    /// connections that vanish.
    package init(clients: Int, rate: Double, seconds: Double, bin: String?, log: String?, churn: Int = 0) {
        self.clients = clients
        self.rate = rate
        self.seconds = seconds
        self.bin = bin
        self.log = log
        self.churn = churn
    }

    /// Raises the open-file limit, finds the log and the tiltd, runs the daemon and the clients, and returns what
    /// was measured.
    ///
    /// - Throws: ``BenchError`` when too few files may be opened, an input is missing, the daemon does not start, or
    ///   not every client gets a frame within 10 s; ``TiltClientError`` when connecting fails.
    package func run() throws -> BenchReport {
        let fileLimit = ProcessProbe.raiseOpenFileLimit()
        if fileLimit < UInt64(clients + 64) {
            throw BenchError(
                .system,
                "this process may open only \(fileLimit) files, too few for \(clients) clients; raise the hard limit "
                    + "(ulimit -Hn) or use fewer --clients")
        }
        let log = try BenchInput.daemonLog(given: log)
        let logRate = (try? SensorLogReader(path: log))?.metadata["sampling_rate_hz"].flatMap(Double.init)
        let daemon = try BenchDaemon(tiltd: try BenchInput.tiltd(bin: bin), log: log)
        defer { daemon.stop() }
        let probe = ProcessProbe(pid: daemon.pid)
        let rssStart = probe.residentBytes

        let pool = WatcherPool()
        try pool.connect(count: clients, path: daemon.socketPath)
        pool.sendAll(.watch(enable: true, rate: rate, raw: false))
        // Warm up: every client has had a frame (the sensor is running and every session is set up).
        pool.run(until: monotonicSeconds() + 10) { $0.clientsWithFrames == $0.clients.count }
        guard pool.clientsWithFrames == clients else {
            throw BenchError(
                .daemon,
                "only \(pool.clientsWithFrames) of \(clients) clients got a frame within 10 s; see \(daemon.logPath)")
        }

        pool.measuring = true
        let cpuStart = probe.cpuSeconds
        let ownStart = ProcessProbe.ownCPUSeconds
        let start = monotonicSeconds()
        pool.run(until: start + seconds)
        let elapsed = monotonicSeconds() - start
        let cpuEnd = probe.cpuSeconds
        let ownEnd = ProcessProbe.ownCPUSeconds
        pool.measuring = false
        let rssLoaded = probe.residentBytes
        // Each client asks for its status: the daemon's count of frames it dropped for that client.
        pool.sendAll(.status)
        pool.run(until: monotonicSeconds() + 10) { pool in pool.clients.allSatisfy { $0.dropped != nil || !$0.open } }

        var report = BenchReport(
            clients: clients, rate: rate, seconds: elapsed, logName: PathText.name(of: log),
            logRate: logRate)
        report.frames = pool.clients.map(\.frames)
        report.daemonDrops = pool.clients.compactMap(\.dropped).reduce(0, +)
        report.statusAnswers = pool.clients.filter { $0.dropped != nil }.count
        report.latencies = pool.latencies
        if let a = cpuStart, let b = cpuEnd { report.cpuPercent = (b - a) / elapsed * 100 }
        report.benchCPUPercent = (ownEnd - ownStart) / elapsed * 100
        report.rssStart = rssStart
        report.rssLoaded = rssLoaded
        pool.reset()
        _ = Self.waitForClients(0, socketPath: daemon.socketPath)
        report.rssAfterClients = probe.residentBytes

        if churn > 0 {
            report.churn = churn
            // The status connection that counted the clients has just closed; give tiltd a moment to see it.
            usleep(300_000)
            report.rssBeforeChurn = probe.residentBytes
            report.fdsBeforeChurn = probe.openDescriptors
            try Self.churn(churn, socketPath: daemon.socketPath)
            report.clientsAfterChurn = Self.waitForClients(0, socketPath: daemon.socketPath)
            usleep(300_000)
            report.rssAfterChurn = probe.residentBytes
            report.fdsAfterChurn = probe.openDescriptors
        }
        return report
    }

    /// Connects and vanishes `count` times, 50 at a time: a third send half a line and close, a third watch and
    /// close while frames stream to them (as a killed client's sockets are closed by the kernel), a third close
    /// at once.
    static func churn(_ count: Int, socketPath: String) throws {
        let watch = ClientCommand.watch(enable: true, rate: 1000, raw: false).lineBytes
        let halfLine = Array(watch.prefix(watch.count / 2))
        var done = 0
        while done < count {
            let batch = min(50, count - done)
            var fds: [Int32] = []
            for i in 0..<batch {
                let fd = try DaemonSocket.connect(path: socketPath)
                switch (done + i) % 3 {
                case 0: _ = WatcherPool.sendAllBytes(fd, halfLine)
                case 1: _ = WatcherPool.sendAllBytes(fd, watch)
                default: break
                }
                fds.append(fd)
            }
            // Let the watchers start receiving, then vanish without reading.
            usleep(20_000)
            for fd in fds { close(fd) }
            done += batch
        }
    }

    /// Polls the daemon's status until it counts `count` other clients (5 s at most); returns the last count.
    static func waitForClients(_ count: Int, socketPath: String) -> Int? {
        let deadline = monotonicSeconds() + 5
        var last: Int?
        repeat {
            if let status = try? BenchDaemon.status(socketPath: socketPath) {
                last = status.clients - 1  // not counting the asking connection
                if last == count { return last }
            }
            usleep(50_000)
        } while monotonicSeconds() < deadline
        return last
    }
}
