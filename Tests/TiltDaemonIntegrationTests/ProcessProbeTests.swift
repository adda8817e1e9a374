import Foundation
import Testing
import TiltTools

#if canImport(Glibc)
    import Glibc
#endif

/// `/proc` parsing of `tilt bench daemon`, on fixture text and on this process.
@Suite
struct ProcessProbeTests {
    @Test("stat: utime plus stime, counted from the last ')' of a command name with spaces and parentheses")
    func cpuTicks() {
        let stat = "4242 (tilt d) (x)) S 1 4242 4242 0 -1 4194560 1520 0 3 0 250 75 0 0 20 0 5 0 81 23000000 1200 "
        #expect(ProcessProbe.cpuTicks(stat: stat) == 325)
        #expect(ProcessProbe.cpuTicks(stat: "4242 (tiltd) S 1 2 3") == nil, "too few fields")
        #expect(ProcessProbe.cpuTicks(stat: "no parenthesis at all") == nil)
    }

    @Test("status: VmRSS in KiB as bytes; none for a process without one")
    func residentBytes() {
        let status = "Name:\ttiltd\nState:\tS (sleeping)\nVmPeak:\t  300000 kB\nVmRSS:\t    5120 kB\nThreads:\t5\n"
        #expect(ProcessProbe.residentBytes(status: status) == 5120 * 1024)
        #expect(ProcessProbe.residentBytes(status: "Name:\tkthreadd\nState:\tS (sleeping)\n") == nil)
    }

    @Test("this process: CPU time, memory and descriptors are read")
    func ownProcess() {
        let probe = ProcessProbe(pid: getpid())
        #expect(probe.cpuSeconds != nil)
        #expect((probe.residentBytes ?? 0) > 0)
        #expect((probe.openDescriptors ?? 0) >= 3)
        #expect(ProcessProbe.ownCPUSeconds > 0)
        #expect(ProcessProbe(pid: -1).residentBytes == nil)
    }
}
