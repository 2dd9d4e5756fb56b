import AppGroupStore
import Foundation
import Glibc

/// `contacts-host signal --wait-for-debugger`: a provider a developer attaches to before the sync.
extension SystemClient {
    /// Makes sure a provider runs, tells `announce` its pid, and returns once a debugger is attached
    /// to it and it listens for doorbells.
    ///
    /// With no provider running, it launches one with ``DebuggerPresence/waitVariable``:
    /// that provider takes the domain's lock and waits for a debugger before it serves, so every
    /// breakpoint set on attach is in place for the first call. A provider already running (launched
    /// or `--foreground`) is attached to as it is. There is no time limit: a developer takes the time
    /// they take (Ctrl-C ends the wait); a provider that exits meanwhile ends it with the log's path.
    package func awaitDebugger(extensionPath: String? = nil, announce: (Int32) -> Void) throws {
        let configuration = try configuration()
        guard configuration.enabled else { throw ClientError.domainDisabled }
        try paths.ensureDirectories()
        var pid = providerPID
        if pid == nil {
            guard let executable = configuration.extensionPath ?? extensionPath, !executable.isEmpty else {
                throw ClientError.noExtension
            }
            let attempt = try LaunchBackoff.checkAndRecord(paths, executable: executable)
            let launched = try ProviderLauncher.launch(
                executable: executable, paths: paths,
                extraEnvironment: [DebuggerPresence.waitVariable: "1"])
            LaunchBackoff.launched(attempt, pid: launched, paths: paths)
            // It holds the lock (with its pid written) before it waits: the pid is the one to attach to.
            pid = try pollUntil(timeout: 10) { providerPID == launched ? launched : nil }
            guard pid != nil else {
                ProcessReaper.end(pid: launched, tagMatching: { _ in false })
                throw ClientError.timeout(seconds: 10, log: paths.providerLog)
            }
        }
        guard let pid else { throw ClientError.providerExited(log: paths.providerLog) }
        announce(pid)
        _ = try pollUntil(timeout: nil) { DebuggerPresence.isTraced(pid: pid) ? true : nil }
        // A debugger that stops the process at attach keeps it from opening its doorbell until the
        // developer continues: wait for that too, with no limit while the debugger stays attached.
        _ = try pollUntil(timeout: nil) { () -> Bool? in
            if case .opened(let fd) = try NamedPipe.openForWriting(paths.requests) {
                close(fd)
                return true
            }
            return nil
        }
    }

    /// Calls `check` every 50 ms until it returns a value (returned), the provider is gone (throws
    /// `providerExited`), Ctrl-C (`interrupted`), or `timeout` seconds pass (nil).
    private func pollUntil<Value>(timeout: Double?, _ check: () throws -> Value?) throws -> Value? {
        let start = ContinuousSystemClock().now()
        var sawProvider = false
        while true {
            if let value = try check() { return value }
            if HostInterrupt.isRaised { throw ClientError.interrupted }
            let running = isProviderRunning
            if sawProvider, !running { throw ClientError.providerExited(log: paths.providerLog) }
            sawProvider = sawProvider || running
            if let timeout, ContinuousSystemClock().now() - start > timeout { return nil }
            usleep(50_000)
        }
    }
}
