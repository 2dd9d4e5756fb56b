import Testing

@testable import CommandLineToolkit

/// The check every executable makes before its first thread: read the limits first, and start
/// threads only when a limit may be near (the at-limit case runs in `ResourceBoundsTests`).
@Suite("ThreadCapacity: limits read before threads are tried")
struct ThreadCapacityTests {
    @Test("/proc/loadavg: the system's threads are the total after the slash of the fourth field")
    func systemThreads() {
        #expect(ThreadCapacity.systemThreads(loadavg: "0.59 0.75 0.75 1/92 12979\n") == 92)
        #expect(ThreadCapacity.systemThreads(loadavg: "0.00 0.01 0.05 3/12345 999") == 12345)
        #expect(ThreadCapacity.systemThreads(loadavg: "0.59 0.75 0.75 92 12979") == nil)
        #expect(ThreadCapacity.systemThreads(loadavg: "") == nil)
        #expect(ThreadCapacity.systemThreads(loadavg: "0.59 0.75 0.75 1/ 12979") == nil)
        #expect(ThreadCapacity.systemThreads(loadavg: "0.59 0.75 0.75 1/9x 12979") == nil)
        #expect(ThreadCapacity.systemThreads(loadavg: "0.59 0.75 0.75 1/92") == 92)
    }

    @Test("/proc/self/cgroup: the unified hierarchy's directory and a version 1 pids hierarchy's")
    func pidsDirectories() {
        let hybrid = "9:name=systemd:/\n8:pids:/\n4:memory:/process_api/051c\n1:cpu:/\n0::/\n"
        let directories = ThreadCapacity.pidsCgroupDirectories(membership: hybrid)
        #expect(directories.map(\.path) == ["/sys/fs/cgroup/pids", "/sys/fs/cgroup"])
        #expect(directories.map(\.root) == ["/sys/fs/cgroup/pids", "/sys/fs/cgroup"])
        let unified = ThreadCapacity.pidsCgroupDirectories(membership: "0::/user.slice/session-2.scope\n")
        #expect(unified.map(\.path) == ["/sys/fs/cgroup/user.slice/session-2.scope"])
        let combined = ThreadCapacity.pidsCgroupDirectories(membership: "5:cpu,pids:/docker/abc\n")
        #expect(combined.map(\.path) == ["/sys/fs/cgroup/pids/docker/abc"])
        #expect(ThreadCapacity.pidsCgroupDirectories(membership: "3:memory:/x\n").isEmpty)
    }

    @Test("with the limits read far away, no thread is tried and the answer is nil")
    func fastPathAgreesWithTheTry() {
        // Where the limits are far (the test machine), both paths must say the same: threads start.
        if ThreadCapacity.clearlyHasRoom(for: 4) {
            #expect(ThreadCapacity.failureMessage(program: "test") == nil)
        }
    }
}
