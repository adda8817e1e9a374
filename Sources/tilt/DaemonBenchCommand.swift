import ArgumentParser
import Foundation
import TiltClient
import TiltCore
import TiltSensors
import TiltWire

#if canImport(Glibc)
    import Glibc
#endif

/// `tilt bench daemon`: starts a tiltd replaying a log, serves it N watchers from this one process, and reports
/// delivery, latency, CPU and memory.
struct DaemonBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Load-test tiltd: N watching clients over its Unix socket; frames, drops, latency, CPU, memory.",
        discussion: """
            Raises its open-file limit to the hard limit (tiltd inherits it), starts tiltd replaying the log in a \
            loop on a temporary socket, connects N clients from this one process (non-blocking sockets, one poll \
            loop), has each watch at --rate, and measures for --seconds: frames per client (expected: the lower of --rate \
            and the log's rate, times the window), frames the daemon dropped for unwritable clients (from each \
            client's status), the daemon's CPU (of one core, from /proc/PID/stat) and RSS, and the latency from a \
            sample entering the daemon to a client reading its frame (the frame's "mono" field against this \
            process's CLOCK_MONOTONIC). --churn K then connects and vanishes K times (a third with a half-sent \
            line, a third closing while frames stream to them, a third at once) and reports RSS and open file \
            descriptors before and after. Build with -c release for numbers worth quoting.
            """)

    @Option(name: .long, parsing: .unconditional, help: "Number of watching clients.")
    var clients = 10

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Frames per second each client asks for.", valueName: "HZ"))
    var rate = 60.0

    @Option(
        name: .long, parsing: .unconditional, help: ArgumentHelp("Length of the measurement window.", valueName: "S"))
    var seconds = 10.0

    @Option(name: .long, help: ArgumentHelp("The tiltd to run (default: next to this tilt).", valueName: "PATH"))
    var tiltd: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Log to replay (default: the repository's Tests/Fixtures/broad-01-excerpt.csv.gz).", valueName: "FILE"))
    var log: String?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Connect-and-vanish this many clients afterwards.", valueName: "N"))
    var churn = 0

    func validate() throws {
        guard clients > 0 else { throw ValidationError("--clients must be at least 1") }
        guard rate >= WireProtocol.minRate, rate <= WireProtocol.maxRate else { throw ValidationError(Watch.rateRange) }
        guard seconds > 0, seconds.isFinite else { throw ValidationError("--seconds must be a positive number") }
        guard churn >= 0 else { throw ValidationError("--churn must not be negative") }
    }

    func run() async throws {
        let fileLimit = ProcessProbe.raiseOpenFileLimit()
        if fileLimit < UInt64(clients + 64) {
            throw BenchError(
                "this process may open only \(fileLimit) files, too few for \(clients) clients; raise the hard limit "
                    + "(ulimit -Hn) or use fewer --clients")
        }
        let logPath = try resolveLog()
        let logRate = (try? SensorLogReader(path: logPath))?.metadata["sampling_rate_hz"].flatMap(Double.init)
        let daemon = try BenchDaemon(tiltd: try resolveTiltd(), log: logPath)
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
            clients: clients, rate: rate, seconds: elapsed, logName: (logPath as NSString).lastPathComponent,
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
        _ = waitForClients(0, socketPath: daemon.socketPath)
        report.rssAfterClients = probe.residentBytes

        if churn > 0 {
            report.churn = churn
            // The status connection that counted the clients has just closed; give tiltd a moment to see it.
            usleep(300_000)
            report.rssBeforeChurn = probe.residentBytes
            report.fdsBeforeChurn = probe.openDescriptors
            try runChurn(socketPath: daemon.socketPath)
            report.clientsAfterChurn = waitForClients(0, socketPath: daemon.socketPath)
            usleep(300_000)
            report.rssAfterChurn = probe.residentBytes
            report.fdsAfterChurn = probe.openDescriptors
        }
        print(report.text)
    }

    /// Connects and vanishes `churn` times, 50 at a time: a third send half a line and close, a third watch and
    /// close while frames stream to them (as a killed client's sockets are closed by the kernel), a third close
    /// at once.
    func runChurn(socketPath: String) throws {
        let watch = ClientCommand.watch(enable: true, rate: 1000, raw: false).lineBytes
        let halfLine = Array(watch.prefix(watch.count / 2))
        var done = 0
        while done < churn {
            let batch = min(50, churn - done)
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
    func waitForClients(_ count: Int, socketPath: String) -> Int? {
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

    /// `--tiltd`, else the tiltd next to this executable.
    func resolveTiltd() throws -> String {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return try BenchInput.resolve(
            option: "--tiltd", given: tiltd,
            defaults: [me.deletingLastPathComponent().appendingPathComponent("tiltd").path],
            usable: FileManager.default.isExecutableFile(atPath:), unusable: "not an executable file",
            missing: "no tiltd next to \(me.path); build it (swift build --product tiltd) or pass --tiltd PATH")
    }

    /// `--log`, else the bundled fixture (from the working directory, then from the repository this was built in).
    func resolveLog() throws -> String {
        let fixture = "Tests/Fixtures/broad-01-excerpt.csv.gz"
        let candidates = [
            FileManager.default.currentDirectoryPath + "/" + fixture,
            BenchInput.repository.appendingPathComponent(fixture).path,
        ]
        return try BenchInput.resolve(
            option: "--log", given: log, defaults: candidates, usable: FileManager.default.isReadableFile(atPath:),
            unusable: "no such readable file",
            missing: "no bundled log at \(candidates.joined(separator: " or ")); pass one with --log FILE")
    }
}
