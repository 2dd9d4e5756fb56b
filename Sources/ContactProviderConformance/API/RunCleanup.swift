import ContactProviderSystem
import Foundation
import Glibc

/// What an executable run started, found and ended when it ends, and named in its report (issue 31
/// item 10, issue 42 item 8).
///
/// Two nets: the run's own cgroup (``LaunchCgroup``), which holds every process its providers
/// started, even one that called `setsid` and cleared its environment; and the launcher's tag
/// (``ProcessReaper/tagVariable`` naming a directory of this run's App Group), for machines where no
/// cgroup can be made. Both name only this run's processes, never another run's in the same process.
final class RunCleanup: Sendable {
    private let runDirectory: String
    private let tagPrefix: String
    private let cgroup: LaunchCgroup?
    /// Why the run has no cgroup of its own, when it has none.
    let containmentUnavailable: String?

    /// Makes the run's cgroup (and names it in `runDirectory` for the launcher) where it can.
    init(runDirectory: String, tagPrefix: String) {
        self.runDirectory = runDirectory
        self.tagPrefix = tagPrefix
        switch LaunchCgroup.make(runDirectory: runDirectory) {
        case .success(let cgroup):
            self.cgroup = cgroup
            containmentUnavailable = nil
        case .failure(let unavailable):
            cgroup = nil
            containmentUnavailable = unavailable.reason
        }
    }

    /// Ends every process of the run still running (the provider has been shut down by now) and
    /// removes the cgroup; returns those the providers started (not the providers themselves), with
    /// how each was ended. A second call finds nothing.
    func endOutliving() -> [OutlivingProcess] {
        let prefix = tagPrefix
        let matches: (String) -> Bool = { $0.hasPrefix(prefix) }
        let protected = ProcessReaper.selfAndAncestors()
        let found = Set((cgroup?.members() ?? []) + ProcessReaper.tagged(matches, excluding: protected))
            .subtracting(protected)
        // Named before anything is ended: a dead process has no name to read.
        let commands = Dictionary(uniqueKeysWithValues: found.map { ($0, Self.command($0)) })
        // A provider this process launched (its parent) is ended too, but is not what outlived the
        // provider: one that answered the shutdown may still be on its way out.
        let providers = Set(found.filter { ProcessReaper.status($0)?.parent == getpid() })
        // The tagged first (SIGTERM, a grace period, SIGKILL); then whatever left the tag behind.
        let tagged = ProcessReaper.end(pid: nil, tagMatching: matches)
        let contained = cgroup?.endAll() ?? [:]
        cgroup?.remove(runDirectory: runDirectory)
        // One that exited by itself meanwhile needed no ending: not reported.
        return found.subtracting(providers).sorted().compactMap { pid in
            let endedBy: String
            if tagged.survivors.contains(pid) || contained[pid] == "still running" {
                endedBy = "still running"
            } else if tagged.killed.contains(pid) || contained[pid] == "SIGKILL" {
                endedBy = "SIGKILL"
            } else if tagged.terminated.contains(pid) || contained[pid] == "SIGTERM" {
                endedBy = "SIGTERM"
            } else {
                return nil
            }
            return OutlivingProcess(pid: pid, command: commands[pid] ?? "?", endedBy: endedBy)
        }
    }

    private static func command(_ pid: pid_t) -> String {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/comm") else { return "?" }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
