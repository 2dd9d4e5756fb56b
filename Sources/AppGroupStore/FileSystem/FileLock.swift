import Foundation
import Glibc

/// A cross-process advisory lock on a lock file (`flock(2)`).
///
/// `flock` belongs to the open file description, so closing some other descriptor of the same file
/// never drops it (the classic `fcntl` footgun). Every participant (host, provider, system) takes it.
package final class FileLock {
    /// Shared (readers) or exclusive (writers).
    package enum Mode: Sendable {
        case shared
        case exclusive
    }

    /// The lock file's path.
    package let path: String
    private let fd: Int32
    private var held = false

    /// Opens (creating if needed) the lock file at `path`.
    ///
    /// On a read-only file system (a read-only mount or backup) an existing lock file is opened
    /// read-only: `flock` works on any descriptor, and shared (reader) locks are all such a
    /// directory can need. A missing one there cannot be created: that throws the `EROFS` error.
    package init(path: String) throws {
        self.path = path
        do {
            fd = try SecureFile.open(path, flags: O_RDWR, create: true)
        } catch StoreError.io(let failedPath, let operation, let code) where code == EROFS {
            do {
                fd = try SecureFile.open(path, flags: O_RDONLY, create: false)
            } catch StoreError.io(_, _, let missing) where missing == ENOENT {
                throw StoreError.io(path: failedPath, operation: operation, errno: code)
            }
        }
    }

    /// The environment variable that bounds every lock wait, in seconds (default 30).
    package static let timeoutVariable = "CONTACT_PROVIDER_LOCK_TIMEOUT"
    /// How long a lock is waited for when `CONTACT_PROVIDER_LOCK_TIMEOUT` is not set.
    package static let defaultTimeoutSeconds: Double = 30
    /// After this long a waiter says on stderr who holds the lock.
    package static let reportAfterSeconds: Double = 1

    /// The configured bound on a lock wait (`CONTACT_PROVIDER_LOCK_TIMEOUT`, else 30 s).
    package static var timeoutSeconds: Double {
        if let text = EnvironmentVariable.value(timeoutVariable), let value = Double(text), value >= 0,
            value.isFinite
        {
            return value
        }
        return defaultTimeoutSeconds
    }

    deinit {
        close(fd)
    }

    /// Waits until the lock is held, at most `timeout` seconds (default: `timeoutSeconds`).
    ///
    /// A process stopped while it holds the lock (a provider paused in a debugger, a `kill -STOP`)
    /// would otherwise block every other one forever without a word. After a second of waiting
    /// this says on stderr who holds it (pid and command, from `/proc/locks`); when the time is up
    /// it throws `StoreError.lockTimeout` naming the holder. When `shouldStop` says so (a Ctrl-C the
    /// caller noticed), the wait ends with `CancellationError`.
    package func lock(_ mode: Mode, timeout: Double? = nil, shouldStop: (() -> Bool)? = nil) throws {
        if try tryLock(mode) { return }
        let limit = timeout ?? Self.timeoutSeconds
        let clock = ContinuousClock()
        let started = clock.now
        var reported = false
        var delay: useconds_t = 1000
        while true {
            let waited = Self.seconds(clock.now - started)
            if shouldStop?() == true { throw CancellationError() }
            if waited >= limit {
                throw StoreError.lockTimeout(path: path, seconds: limit, holder: LockHolder.describe(lockFD: fd))
            }
            if !reported, waited >= Self.reportAfterSeconds {
                reported = true
                let holder = LockHolder.describe(lockFD: fd) ?? "another process"
                LockHolder.report(
                    "waiting for the lock on \(path), held by \(holder); giving up after \(Self.format(limit)) s "
                        + "(\(Self.timeoutVariable))")
            }
            // flock(2) has no timed form and no event to wait on: poll with a growing interval.
            let remaining = max(0, limit - waited) * 1_000_000
            usleep(Double(delay) < remaining ? delay : useconds_t(remaining) + 1)
            delay = min(delay * 2, 50_000)
            if try tryLock(mode) { return }
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }

    /// Takes the lock if nobody else holds it; returns false otherwise.
    package func tryLock(_ mode: Mode) throws -> Bool {
        while flock(fd, (mode == .shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK { return false }
            throw StoreError.io(path: path, operation: "flock", errno: errno)
        }
        held = true
        return true
    }

    /// Releases the lock.
    package func unlock() {
        if held {
            flock(fd, LOCK_UN)
            held = false
        }
    }

    /// Replaces the lock file's contents (e.g. the holder's pid, for `status`).
    package func writeContents(_ text: String) {
        _ = ftruncate(fd, 0)
        let bytes = Array(text.utf8)
        _ = pwrite(fd, bytes, bytes.count, 0)
    }

    /// Reads a lock file's contents without locking it.
    package static func contents(of path: String) -> String? {
        guard let data = try? SecureFile.readIfPresent(path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs `body` while holding the lock (see ``lock(_:timeout:shouldStop:)`` for `shouldStop`).
    package func withLock<T>(_ mode: Mode, shouldStop: (() -> Bool)? = nil, _ body: () throws -> T) throws -> T {
        try lock(mode, shouldStop: shouldStop)
        defer { unlock() }
        return try body()
    }
}
