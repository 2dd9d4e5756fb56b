import AppGroupStore
import Foundation
import Glibc

/// What the provider does once as it starts, before it serves: take the single-consumer lock and
/// clear what dead processes left behind.
extension ProviderRuntime {
    /// Removes what earlier processes left behind: temp files of writers that are gone, traces and
    /// probe results nobody collected (their host was interrupted), and reply FIFOs with no reader.
    /// Runs once per start, under the provider lock.
    func removeLeftovers() {
        for directory in [paths.domainDirectory, paths.systemStore, paths.runDirectory, paths.tracesDirectory] {
            SecureFile.sweepTemporaryFiles(in: directory)
        }
        let now = time(nil)
        let fileManager = FileManager.default
        // A host reads its trace right after the reply; one an hour old was abandoned.
        for name in (try? fileManager.contentsOfDirectory(atPath: paths.tracesDirectory)) ?? [] {
            let path = paths.tracesDirectory + "/" + name
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, now - info.st_mtim.tv_sec > 3600 {
                unlink(path)
            }
        }
        // A reply pipe nobody holds was left by a host that is gone (`HeldPipe`: its host holds it
        // from the moment it has its name). The hold check reads /proc, so only pipes a minute old by
        // their time are examined; the time only narrows the search and never decides, and nothing
        // here opens a pipe (a probe would hang up on a waiting host).
        let candidates = ((try? fileManager.contentsOfDirectory(atPath: paths.repliesDirectory)) ?? []).filter { name in
            var info = stat()
            return lstat(paths.repliesDirectory + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
                && now - info.st_mtim.tv_sec > 60
        }
        guard !candidates.isEmpty else { return }
        let held = HeldPipe.heldFiles()
        for name in candidates where HeldPipe.isStale(name: name, in: paths.repliesDirectory, held: held) {
            unlink(paths.repliesDirectory + "/" + name)
        }
    }

    /// Takes the provider lock. If it is held by a provider that still serves, refuse at once;
    /// if the holder is on its way out (its FIFO has no reader), wait for it (bounded).
    func acquire(_ lock: FileLock) throws -> Bool {
        let deadline = ContinuousSystemClock().now() + 10
        while true {
            if try lock.tryLock(.exclusive) { return true }
            if case .opened(let fd) = try NamedPipe.openForWriting(paths.requests) {
                close(fd)
                return false
            }
            if ContinuousSystemClock().now() > deadline { return false }
            usleep(20_000)
        }
    }

    /// With ``DebuggerPresence/waitVariable`` set to `1`, says how to attach and waits (holding the lock,
    /// before opening the doorbell) until a debugger is attached. `SIGTERM` still ends it (`disable`).
    func waitForDebuggerIfAsked() {
        guard ProcessInfo.processInfo.environment[DebuggerPresence.waitVariable] == "1" else { return }
        let pid = getpid()
        log("waiting for a debugger: attach with 'gdb -p \(pid)' or 'lldb-16 -p \(pid)'; it serves once attached")
        // The kernel announces no attach; /proc is read ten times a second while nobody is attached.
        while !DebuggerPresence.isTraced() { usleep(100_000) }
        log("debugger attached (TracerPid \(DebuggerPresence.tracerPID() ?? 0)); serving")
    }
}
