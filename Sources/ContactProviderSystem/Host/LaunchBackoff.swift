import AppGroupStore
import Foundation
import Glibc

/// A bounded back-off for a provider that fails to start (issue 31 item 9).
///
/// Before each launch the host records the attempt in `run/<domain>/launch-attempts.json`; a
/// provider that gets as far as serving (its session made: `init()`, `configure(for:)`,
/// `enumerator(for:)`, R15/R16) removes the file. So a file whose last launched pid is gone counts
/// the consecutive launches that crashed or exited at start. After ``freeAttempts`` of them, each
/// further launch waits ``firstDelay`` seconds after the last, doubling, at most ``maximumDelay``;
/// a signal before then fails at once, naming the log and the time left. A successful start,
/// `enable` or any configuration change, a changed executable (path, inode, size or modification
/// time) and a reboot clear the count. Times are `CLOCK_MONOTONIC`, which every process on the
/// machine shares, and are only compared within one boot.
package enum LaunchBackoff {
    /// Consecutive start failures relaunched at once.
    package static let freeAttempts = 2
    /// The longest wait between two launches.
    package static let maximumDelay = 60.0

    struct Record: Codable {
        var failures: Int
        var lastPID: Int32
        var lastAttempt: Double
        var boot: String
        var executable: String
    }

    /// The first wait, after ``freeAttempts`` + 1 failures; each further failure doubles it.
    package static let firstDelay = 5.0

    /// The wait after `failures` consecutive start failures.
    package static func delay(afterFailures failures: Int) -> Double {
        guard failures > freeAttempts else { return 0 }
        return min(firstDelay * pow(2, Double(min(failures - freeAttempts - 1, 16))), maximumDelay)
    }

    /// Throws ``SystemClient/ClientError/launchBackoff(failures:retryAfter:log:)`` while a launch of
    /// `executable` is not allowed yet; otherwise records this attempt (pid filled in by ``launched``).
    static func checkAndRecord(_ paths: DomainPaths, executable: String) throws -> Record {
        let identity = identify(executable)
        let now = MonotonicSemaphore.now()
        var failures = 0
        if let record = load(paths), record.boot == bootID(), record.executable == identity {
            if ProcessReaper.isRunning(record.lastPID) {
                failures = max(record.failures - 1, 0)  // the last attempt is still starting: not a failure yet
            } else {
                failures = record.failures
                let wait = delay(afterFailures: failures) - (now - record.lastAttempt)
                if wait > 0 {
                    throw SystemClient.ClientError.launchBackoff(
                        failures: failures, retryAfter: wait, log: paths.providerLog)
                }
            }
        }
        return Record(failures: failures + 1, lastPID: 0, lastAttempt: now, boot: bootID(), executable: identity)
    }

    /// Saves the attempt with the launched pid.
    static func launched(_ record: Record, pid: pid_t, paths: DomainPaths) {
        var record = record
        record.lastPID = pid
        guard let data = try? JSONEncoder().encode(record) else { return }
        try? SecureFile.replace(path(paths), with: data)
    }

    /// Forgets every recorded failure (a provider started, or the user re-enabled the domain).
    package static func clear(_ paths: DomainPaths) {
        unlink(path(paths))
    }

    static func path(_ paths: DomainPaths) -> String { paths.launchAttempts }

    private static func load(_ paths: DomainPaths) -> Record? {
        guard let data = try? SecureFile.readIfPresent(path(paths)) else { return nil }
        return try? JSONDecoder().decode(Record.self, from: data)
    }

    private static func identify(_ executable: String) -> String {
        var info = stat()
        guard stat(executable, &info) == 0 else { return executable }
        return
            "\(executable):\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    private static func bootID() -> String {
        let data = FileManager.default.contents(atPath: "/proc/sys/kernel/random/boot_id") ?? Data()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
