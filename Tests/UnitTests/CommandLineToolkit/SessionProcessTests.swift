import CommandLineToolkit
import Foundation
import Glibc
import Testing

@Suite("SessionProcess: a child leading a session of its own, as a launched provider does")
struct SessionProcessTests {
    @Test("The child leads its own session and process group, apart from this process's")
    func leadsItsOwnSession() throws {
        // `sleep` stays until it is ended: its session is read while it runs.
        let child = try SessionProcess(["/bin/sleep", "30"])
        defer {
            child.send(SIGKILL)
            child.waitUntilExit()
        }
        #expect(child.isRunning)
        #expect(getsid(child.pid) == child.pid, "the child is its session's leader")
        #expect(getpgid(child.pid) == child.pid, "and its process group's")
        #expect(getsid(child.pid) != getsid(0), "not in this process's session")
    }

    @Test("A child that exits is reaped once, and is then no longer running")
    func reapsAnExit() throws {
        let child = try SessionProcess(["/bin/sh", "-c", "exit 3"])
        child.waitUntilExit()
        #expect(!child.isRunning)
        // Reaped: no zombie with that pid is left for this process to wait for.
        var status: Int32 = 0
        #expect(waitpid(child.pid, &status, WNOHANG) == -1 && errno == ECHILD)
        child.send(SIGKILL)  // a no-op once reaped: the pid may be another process's now
    }

    @Test("Signals are unblocked in the child even when the starting thread blocks them")
    func unblocksSignals() throws {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let child: SessionProcess
        do {
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            child = try SessionProcess(["/bin/sleep", "30"])
        }
        defer {
            child.send(SIGKILL)
            child.waitUntilExit()
        }
        // The kernel's record of the child's blocked signals (it blocks none of its own).
        let status = try String(contentsOfFile: "/proc/\(child.pid)/status", encoding: .utf8)
        let blockedLine = status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }
        #expect(blockedLine == "SigBlk:\t0000000000000000", "the starting thread's mask is not passed on")
    }

    @Test("A missing executable is the spawn's error, not a child")
    func missingExecutable() {
        #expect(throws: ProcessSpawn.SpawnError.self) {
            _ = try SessionProcess(["/nonexistent/cps-session-process-test"])
        }
    }
}
