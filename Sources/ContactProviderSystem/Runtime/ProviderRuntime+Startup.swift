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
        // A waiting host holds its reply FIFO open for reading from the moment it creates it; one
        // without a reader for a minute belongs to a host that is gone.
        for name in (try? fileManager.contentsOfDirectory(atPath: paths.repliesDirectory)) ?? []
        where name.hasSuffix(".fifo") {
            let path = paths.repliesDirectory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFIFO, now - info.st_mtim.tv_sec > 60 else {
                continue
            }
            switch try? NamedPipe.openForWriting(path) {
            case .opened(let fd): close(fd)
            case .noReader: unlink(path)
            case nil: break  // not ours or not a FIFO: leave it for the host's own checks
            }
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
