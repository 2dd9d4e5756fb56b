import AppGroupStore
import ContactProviderSystem
import Foundation
import Glibc

/// A fresh App Group directory for one test, removed (with any provider it started stopped) by `cleanUp()`.
///
/// Every test uses its own, so tests can run in parallel and leave nothing behind.
package final class TemporaryAppGroup: @unchecked Sendable {
    /// The directory.
    package let path: String
    /// As an `AppGroup`.
    package var appGroup: AppGroup { AppGroup(path: path) }

    /// Creates `/tmp/cps-test-XXXXXX` (mode 0700), or `<parent>/cps-test-XXXXXX` (e.g. on a `ScratchFileSystem`).
    package init(inside parent: String = NSTemporaryDirectory()) {
        var template = Array((parent + "/cps-test-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "mkdtemp failed: \(errno)")
        path = AppGroup(path: String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)).path
    }

    /// The environment for processes that should use this App Group.
    package var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment[AppGroup.environmentVariable] = path
        environment["OSLOG_DISABLE"] = "1"
        return environment
    }

    /// The running provider's pid for `domain`, if any.
    package func providerPID(domain: String = "defaultDomain") -> pid_t? {
        Self.providerPID(appGroupPath: path, domain: domain)
    }

    /// The running provider's pid for `domain` in the App Group at `appGroupPath`, if any.
    package static func providerPID(appGroupPath: String, domain: String = "defaultDomain") -> pid_t? {
        let lockPath = appGroupPath + "/run/\(domain)/provider.lock"
        guard let lock = try? FileLock(path: lockPath) else { return nil }
        if (try? lock.tryLock(.shared)) == true {
            lock.unlock()
            return nil
        }
        return FileLock.contents(of: lockPath).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Stops any provider still running for this App Group (SIGTERM, then SIGKILL) and removes the directory.
    ///
    /// - Returns: whether a provider had to be stopped (tests that expect none can assert on it).
    @discardableResult
    package func cleanUp() -> Bool {
        let stopped = Self.stopProviders(inAppGroup: path)
        try? FileManager.default.removeItem(atPath: path)
        return stopped
    }

    /// Stops any provider still running for the App Group at `appGroupPath` (SIGTERM to its process
    /// group, then SIGKILL), e.g. one nested inside this temporary directory, and every process the
    /// launcher tagged for a domain under that directory (children a provider forked, ones that
    /// ignore SIGTERM); returns whether anything had to be stopped.
    @discardableResult
    package static func stopProviders(inAppGroup appGroupPath: String) -> Bool {
        var stopped = false
        let runDirectory = appGroupPath + "/run"
        let domains = (try? FileManager.default.contentsOfDirectory(atPath: runDirectory)) ?? []
        for domain in domains {
            if let pid = providerPID(appGroupPath: appGroupPath, domain: domain) {
                let outcome = ProcessReaper.end(
                    pid: pid, tagMatching: { $0 == runDirectory + "/" + domain }, grace: 5)
                stopped = stopped || !outcome.terminated.isEmpty
            }
        }
        let prefix = appGroupPath + "/"
        let leftovers = ProcessReaper.end(pid: nil, tagMatching: { $0.hasPrefix(prefix) }, grace: 5)
        return stopped || !leftovers.terminated.isEmpty
    }
}
