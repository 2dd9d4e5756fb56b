import Foundation
import Glibc

/// Ends a provider and everything it started: its process group, then every process the launcher
/// tagged for the same domain (issue 31 items 9 and 10).
///
/// The launcher starts each provider with `setsid`, so it leads its own process group, and puts
/// ``tagVariable`` (the domain's run directory) in its environment, which its children inherit. A
/// child that left the group (`setsid` of its own) or a provider from an earlier launch is found by
/// that tag in `/proc/PID/environ`. This process and its ancestors are never ended, whatever their
/// environment says (a host launched from inside a provider's shell, say).
///
/// Each target gets SIGCONT (a stopped process cannot act on anything else) and SIGTERM, then
/// `grace` seconds of monotonic time to exit, then SIGKILL.
package enum ProcessReaper {
    /// The environment variable the launcher sets on every provider: its domain's run directory.
    package static let tagVariable = "CONTACT_PROVIDER_LAUNCH_TAG"

    /// How long a process has after SIGTERM before SIGKILL.
    package static let defaultGraceSeconds = 2.0

    /// What ending took.
    package struct Outcome: Equatable, Sendable {
        /// Every process that was still running and was sent SIGTERM.
        package var terminated: [pid_t] = []
        /// Those that were still running after the grace period and were sent SIGKILL.
        package var killed: [pid_t] = []
        /// Those still there after SIGKILL and a further wait (in uninterruptible sleep, say).
        package var survivors: [pid_t] = []

        /// One clause for a message, after "it was" / "they were".
        package var summary: String {
            let count = "\(terminated.count) process\(terminated.count == 1 ? "" : "es")"
            if !survivors.isEmpty { return "sent SIGTERM and SIGKILL, but pids \(survivors) are still running" }
            if !killed.isEmpty {
                return "sent SIGTERM, still ran after the grace period and were killed with SIGKILL (\(count))"
            }
            return "ended with SIGTERM (\(count))"
        }
    }

    /// Ends `pid`'s process group (when it leads one) and every process whose tag `matches`.
    ///
    /// - Parameters:
    ///   - pid: the provider's pid (from `provider.lock`), if known.
    ///   - matches: which tag values are this run's (an exact run directory, or an App Group prefix).
    ///   - grace: seconds between SIGTERM and SIGKILL.
    @discardableResult
    package static func end(pid: pid_t?, tagMatching matches: (String) -> Bool, grace: Double = defaultGraceSeconds)
        -> Outcome
    {
        let protected = selfAndAncestors()
        var groups: [pid_t] = []
        if let pid, pid > 1, !protected.contains(pid), getpgid(pid) == pid { groups.append(pid) }
        var targets = Set(tagged(matches, excluding: protected))
        if let pid, pid > 1, !protected.contains(pid), isRunning(pid) { targets.insert(pid) }
        for group in groups { targets.formUnion(members(ofGroup: group, excluding: protected)) }
        var outcome = Outcome()
        guard !targets.isEmpty else { return outcome }
        outcome.terminated = targets.sorted()
        for group in groups {
            kill(-group, SIGCONT)
            kill(-group, SIGTERM)
        }
        for target in targets {
            kill(target, SIGCONT)
            kill(target, SIGTERM)
        }
        var remaining = waitUntilGone(targets, seconds: grace)
        // Whatever forked during the grace period carries the tag too.
        remaining.formUnion(tagged(matches, excluding: protected))
        for group in groups { remaining.formUnion(members(ofGroup: group, excluding: protected)) }
        guard !remaining.isEmpty else { return outcome }
        outcome.killed = remaining.sorted()
        for group in groups { kill(-group, SIGKILL) }
        for target in remaining { kill(target, SIGKILL) }
        outcome.survivors = waitUntilGone(remaining, seconds: 5).sorted()
        return outcome
    }

    /// Whether `pid` exists and is not a zombie.
    package static func isRunning(_ pid: pid_t) -> Bool {
        guard let state = status(pid) else { return false }
        return state.state != "Z" && state.state != "X"
    }

    /// The running processes whose ``tagVariable`` satisfies `matches`, minus `excluded`.
    package static func tagged(_ matches: (String) -> Bool, excluding excluded: Set<pid_t> = []) -> [pid_t] {
        let prefix = Array((tagVariable + "=").utf8)
        var found: [pid_t] = []
        for pid in allPIDs() where !excluded.contains(pid) {
            guard let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { continue }
            for entry in environ.split(separator: 0, omittingEmptySubsequences: true)
            where entry.starts(with: prefix) {
                let value = String(decoding: entry.dropFirst(prefix.count), as: UTF8.self)
                if matches(value), isRunning(pid) { found.append(pid) }
                break
            }
        }
        return found
    }

    /// This process and every ancestor up to init: never a target.
    package static func selfAndAncestors() -> Set<pid_t> {
        var result: Set<pid_t> = [getpid()]
        var current = getppid()
        while current > 0, result.insert(current).inserted {
            guard let parent = status(current)?.parent else { break }
            current = parent
        }
        return result
    }

    private static func members(ofGroup group: pid_t, excluding excluded: Set<pid_t>) -> [pid_t] {
        allPIDs().filter { !excluded.contains($0) && status($0)?.group == group && isRunning($0) }
    }

    /// Polls `/proc` (a non-child's exit has no event to wait on) until every pid is gone or the
    /// time passes; returns those still running.
    private static func waitUntilGone(_ pids: Set<pid_t>, seconds: Double) -> Set<pid_t> {
        var remaining = pids
        Poll.until(seconds: seconds, every: 0.005) {
            remaining = remaining.filter(isRunning)
            return remaining.isEmpty
        }
        return remaining
    }

    private static func allPIDs() -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }
    }

    /// State, parent and process group from `/proc/PID/stat` (after the command's closing
    /// parenthesis); nil when the process is gone.
    package static func status(_ pid: pid_t) -> (state: Character, parent: pid_t, group: pid_t)? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 3, let state = fields[0].first, let parent = pid_t(fields[1]),
            let group = pid_t(fields[2])
        else { return nil }
        return (state, parent, group)
    }
}
