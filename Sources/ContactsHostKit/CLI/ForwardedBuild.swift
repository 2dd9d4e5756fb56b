import Foundation
import Glibc

/// Keeps the executable of ``ForwardedCommands`` as fresh as `contacts-host` when both run from a
/// package's `.build`: built (by `swift build`, as make would) when missing or older than the
/// package's manifest or any file under `Sources/`.
enum ForwardedBuild {
    /// Whether `path` is missing, or older than `root`'s `Package.swift` or anything under `root/Sources`.
    ///
    /// A stat per file (a few hundred: about a millisecond), paid only by the forwarded commands.
    static func isStale(_ path: String, root: String) -> Bool {
        guard let built = modified(path) else { return true }
        if let manifest = modified(root + "/Package.swift"), manifest > built { return true }
        guard let sources = FileManager.default.enumerator(atPath: root + "/Sources") else { return false }
        for case let relative as String in sources {
            if let time = modified(root + "/Sources/" + relative), time > built { return true }
        }
        return false
    }

    /// Builds `executable` (at `path`, stale) unless a SwiftPM process runs this one (a test): that
    /// process may hold the package's build lock until this one ends, so `swift build` could wait
    /// for ever. It has just built everything anyway (`swift test`), so an existing executable
    /// runs as it is; a missing one is an error.
    static func refresh(
        _ executable: String, at path: String, in tree: PackageBuild.Tree, output: CommandOutput
    ) throws {
        if let holder = swiftPMAncestor() {
            guard access(path, X_OK) == 0 else {
                throw CommandFailure(
                    "\(executable) is not built, and this command runs under SwiftPM (\(holder.name), pid \(holder.pid)), whose build lock a build now could wait for for ever: build it first with 'swift build'"
                )
            }
            return
        }
        // Another SwiftPM (a `swift test` in another terminal) may hold the build folder for minutes:
        // never wait for it without a word. A built executable, only older than the sources, runs as
        // it is, saying so; a missing one is built, saying whom the build waits for.
        if let holder = buildLockHolder(root: tree.root) {
            if access(path, X_OK) == 0 {
                output.err(
                    "warning: \(executable) is older than the package's sources, and \(holder.name) (pid \(holder.pid)) is using \(tree.root)/.build, so it runs as built; 'swift build' refreshes it"
                )
                return
            }
            output.err(
                "note: \(holder.name) (pid \(holder.pid)) is using \(tree.root)/.build: building \(executable) starts when it ends (Ctrl-C stops the wait)"
            )
        }
        try build(executable, in: tree, output: output)
        // SwiftPM leaves an up-to-date executable as it was (older than an unrelated source file):
        // its new time says it was checked, so the next command does not build again.
        utimensat(AT_FDCWD, path, nil, 0)
    }

    /// The nearest ancestor of `process` (this one's parent by default) that is SwiftPM (`swift test`,
    /// `swift build`…), or nil.
    static func swiftPMAncestor(from process: Int32 = getppid()) -> (name: String, pid: Int32)? {
        let names: Set<String> = ["swift-test", "swift-build", "swift-run", "swift-package"]
        var pid = process
        while pid > 1, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let (name, parent) = parseStat(stat)
        {
            if names.contains(name) { return (name, pid) }
            pid = parent
        }
        return nil
    }

    /// The live SwiftPM process using `root/.build`, or nil when none is. SwiftPM writes its pid into
    /// `.build/.lock` and holds a lock elsewhere (in the temporary directory) while it builds or
    /// tests; the file keeps the pid after it ends, so the pid counts only while it is a live
    /// `swift-…` process.
    static func buildLockHolder(root: String) -> (name: String, pid: Int32)? {
        guard let text = try? String(contentsOfFile: root + "/.build/.lock", encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid != getpid(),
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let (name, _) = parseStat(stat), name.hasPrefix("swift-")
        else { return nil }
        return (name, pid)
    }

    /// The command name and parent pid in a `/proc/PID/stat` line (`PID (NAME) STATE PPID …`; the
    /// name may hold spaces and parentheses, so it ends at the last `)`).
    static func parseStat(_ line: String) -> (name: String, parent: Int32)? {
        guard let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        guard fields.count > 1, let parent = Int32(fields[1]) else { return nil }
        return (String(line[line.index(after: open)..<close]), parent)
    }

    /// Runs `swift build --product executable` in `tree`, saying so on standard error.
    static func build(_ executable: String, in tree: PackageBuild.Tree, output: CommandOutput) throws {
        output.err(
            "note: building \(executable) (it runs 'conformance' and 'demo carddav'): swift build in \(tree.root)…")
        let status = try PackageBuild.build(executable, in: tree)
        guard status == 0 else {
            throw CommandFailure(
                "building \(executable) failed (swift build exited with \(status); its output is above)")
        }
    }

    /// The file's modification time in nanoseconds, or nil when it cannot be read.
    private static func modified(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
    }
}
