import AppGroupStore
import Foundation
import Glibc

/// A control group of its own for one conformance run's providers and everything they start (issue
/// 42 item 8), where the machine lets this process make one.
///
/// A process that calls `setsid` and clears its environment (`setsid env -i …`) leaves both the
/// provider's process group and ``ProcessReaper/tagVariable``, but not its cgroup: the kernel moves
/// children with their parent and only a privileged write moves them out. So whatever is in the
/// run's cgroup when the run ends was started by this run's providers, and not by another run in the
/// same test process (Swift Testing runs tests in parallel in one process; a process-wide "end my
/// orphans" would end theirs).
///
/// The kit makes one per run and names its `cgroup.procs` in ``markerName`` in the domain's run
/// directory; ``ProviderLauncher`` then starts the provider through `/bin/sh`, which writes its own
/// pid there and `exec`s the provider, so the provider is inside before its first instruction.
/// Tried in turn: the cgroup v1 `freezer` hierarchy (freeze, kill, thaw: nothing forks meanwhile), the
/// v1 `pids` hierarchy, and a child of this process's own cgroup v2 (a delegated subtree). Where none
/// can be made (not root, no delegation), ``make(runDirectory:)`` says why, and the run falls back on
/// the tag and the process group alone.
package struct LaunchCgroup: Sendable {
    /// The file in a domain's run directory naming the `cgroup.procs` the launcher puts providers in.
    package static let markerName = "launch-cgroup"

    /// Where cgroup hierarchies are mounted.
    static let root = "/sys/fs/cgroup"

    /// The cgroup's directory.
    package let directory: String
    /// Whether it has a v1 `freezer.state` (or a v2 `cgroup.freeze`).
    let freezeFile: String?

    /// The file a pid is written to, to move that process in.
    package var procsFile: String { directory + "/cgroup.procs" }

    /// Makes a cgroup for one run and names it in `runDirectory`'s marker; the reason when it cannot.
    package static func make(runDirectory: String) -> Result<LaunchCgroup, LaunchCgroupUnavailable> {
        let name = "cps-conformance-" + UUID().uuidString
        var reasons: [String] = []
        for parent in candidateParents() {
            let directory = parent.path + "/" + name
            guard mkdir(directory, 0o755) == 0 else {
                reasons.append("\(parent.path): \(String(cString: strerror(errno)))")
                continue
            }
            let freeze = parent.freezeFile.map { directory + "/" + $0 }
            let cgroup = LaunchCgroup(directory: directory, freezeFile: freeze)
            do {
                try SecureFile.replace(runDirectory + "/" + markerName, with: Data(cgroup.procsFile.utf8))
            } catch {
                cgroup.remove()
                return .failure(
                    LaunchCgroupUnavailable(reason: "could not write \(runDirectory)/\(markerName): \(error)"))
            }
            return .success(cgroup)
        }
        return .failure(
            LaunchCgroupUnavailable(
                reason: reasons.isEmpty
                    ? "no cgroup hierarchy is mounted under \(root)"
                    : "no cgroup could be created (\(reasons.joined(separator: "; ")))"))
    }

    /// The `cgroup.procs` a provider launched for `runDirectory` joins, when the kit made a cgroup
    /// for its run (one `lstat` per launch when it did not).
    package static func procsFile(forRunDirectory runDirectory: String) -> String? {
        let marker = runDirectory + "/" + markerName
        var information = stat()
        guard lstat(marker, &information) == 0, information.st_mode & S_IFMT == S_IFREG,
            let data = FileManager.default.contents(atPath: marker)
        else { return nil }
        let path = String(decoding: data, as: UTF8.self)
        // Only a cgroup's own file: the launcher's shell writes a pid to whatever this names.
        guard path.hasPrefix(root + "/"), path.hasSuffix("/cgroup.procs"), !path.contains("/../"),
            !path.contains("\n")
        else { return nil }
        return path
    }

    /// Every process in the cgroup now.
    package func members() -> [pid_t] {
        guard let text = try? String(contentsOfFile: procsFile, encoding: .utf8) else { return [] }
        // A zombie is over (a container's init may not reap promptly); only the living count.
        return text.split(separator: "\n").compactMap { pid_t($0) }.filter(ProcessReaper.isRunning)
    }

    /// Ends every process in the cgroup: SIGCONT and SIGTERM, `grace` seconds, then (frozen first,
    /// where a freezer is there, so nothing forks between the listing and the kill) SIGKILL.
    ///
    /// - Returns: how each process that was there was ended: `SIGTERM`, `SIGKILL`, or `still
    ///   running` (uninterruptible sleep, say), by pid.
    package func endAll(grace: Double = ProcessReaper.defaultGraceSeconds) -> [pid_t: String] {
        var ending: [pid_t: String] = [:]
        let first = members()
        guard !first.isEmpty else { return ending }
        for pid in first {
            ending[pid] = "SIGTERM"
            kill(pid, SIGCONT)
            kill(pid, SIGTERM)
        }
        if Poll.until(seconds: grace, every: 0.005, { members().isEmpty }) { return ending }
        for _ in 0..<10 {
            let remaining = members()
            if remaining.isEmpty { break }
            write(freezeFile, freezeFile?.hasSuffix("freezer.state") == true ? "FROZEN" : "1")
            for pid in remaining {
                ending[pid] = "SIGKILL"
                kill(pid, SIGKILL)
            }
            write(freezeFile, freezeFile?.hasSuffix("freezer.state") == true ? "THAWED" : "0")
            Poll.until(seconds: 1, every: 0.005) { members().isEmpty }
        }
        for pid in members() { ending[pid] = "still running" }
        return ending
    }

    /// Removes the cgroup and the run directory's marker; false when the cgroup is still there.
    ///
    /// A process ended moments ago may still be a zombie in the cgroup (its new parent, often init,
    /// has not collected it yet), which makes `rmdir` fail with EBUSY: it is tried again for up to
    /// `seconds`.
    @discardableResult
    package func remove(runDirectory: String? = nil, seconds: Double = 2) -> Bool {
        if let runDirectory { unlink(runDirectory + "/" + Self.markerName) }
        return Poll.until(seconds: seconds, every: 0.01) { rmdir(directory) == 0 || errno == ENOENT }
    }

    private func write(_ path: String?, _ value: String) {
        guard let path else { return }
        try? Data(value.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The directories a run's cgroup may be made in, best first, with their freeze file's name.
    private static func candidateParents() -> [(path: String, freezeFile: String?)] {
        var parents: [(path: String, freezeFile: String?)] = []
        let manager = FileManager.default
        for (hierarchy, freeze) in [("freezer", "freezer.state"), ("pids", nil)]
        where manager.fileExists(atPath: "\(root)/\(hierarchy)/cgroup.procs") {
            parents.append(("\(root)/\(hierarchy)", freeze))
        }
        // cgroup v2: a child of this process's own cgroup ("0::/PATH"), mounted at the root or at unified/.
        let own = (try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) ?? ""
        if let line = own.split(separator: "\n").first(where: { $0.hasPrefix("0::") }) {
            let path = String(line.dropFirst(3)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            for mount in [root, root + "/unified"] where manager.fileExists(atPath: mount + "/cgroup.controllers") {
                parents.append((path.isEmpty ? mount : mount + "/" + path, "cgroup.freeze"))
                break
            }
        }
        return parents
    }
}

/// Why a run has no cgroup of its own (not root, no delegated cgroup v2 subtree, no cgroups).
package struct LaunchCgroupUnavailable: Error, CustomStringConvertible, Sendable {
    /// The reason, naming what was tried.
    package let reason: String
    package var description: String { reason }
}
