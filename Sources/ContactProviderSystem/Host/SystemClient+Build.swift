import AppGroupStore
import CommandLineToolkit
import Foundation
import Glibc

/// Which build of the extension is serving: never stale code (issue 24).
///
/// A launched provider lives on between signals (each one restarts its idle timer), so after
/// `swift build` the old image kept answering — `/proc/PID/exe` said `(deleted)`, nothing else did.
/// The system compares the image the running provider executes with the registered executable
/// (device, inode, modification time: a rebuild or a copy over it changes one of them) before each
/// signal, and retires a provider that runs another build.
package struct ExecutableBuild: Equatable, Sendable, CustomStringConvertible {
    package let device: UInt64
    package let inode: UInt64
    /// Modification time: seconds and nanoseconds since 1970.
    package let modifiedSeconds: Int
    package let modifiedNanoseconds: Int

    /// The build of the file at `path` (symbolic links followed), or nil when it cannot be read.
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
    }

    /// The build process `pid` executes (`/proc/PID/exe` reaches its image even once it was deleted).
    package init?(runningAs pid: pid_t) {
        self.init(path: "/proc/\(pid)/exe")
    }

    /// `inode N, built YYYY-MM-DDTHH:MM:SSZ`.
    package var description: String {
        let date = Date(timeIntervalSince1970: Double(modifiedSeconds) + Double(modifiedNanoseconds) / 1e9)
        return "inode \(inode), built \(date.formatted(Date.ISO8601FormatStyle()))"
    }
}

extension SystemClient {
    /// The running provider's build against the registered executable.
    package enum ServingBuild: Equatable, Sendable {
        /// No provider runs.
        case none
        /// It runs the registered executable as it is on disk now.
        case current(pid: pid_t, build: ExecutableBuild)
        /// It runs another build: `registered` is what the domain names now (nil: the file is gone).
        case stale(pid: pid_t, running: ExecutableBuild, registered: ExecutableBuild?)
        /// It runs, but its image cannot be compared (no registered executable, or /proc unreadable).
        case unknown(pid: pid_t)
    }

    /// Which build serves now.
    package func servingBuild() -> ServingBuild {
        servingBuild(registeredExecutable: (try? configuration())?.extensionPath)
    }

    /// Which build serves now, against `path` (the configuration's executable, already read).
    ///
    /// When the registered executable is the image itself, the two are compared. When it is not — a
    /// script that sets up an environment and `exec`s the real provider, `swift run`, an interpreter —
    /// the script never equals the image, and comparing them called every launch "an older build"
    /// (issue 42, item 9): then the image is compared with the file now at its own path, which a
    /// rebuild replaces. (An edit of the script alone is seen at the provider's next start.)
    func servingBuild(registeredExecutable path: String?) -> ServingBuild {
        guard let pid = providerPID else { return .none }
        guard let path, let running = ExecutableBuild(runningAs: pid) else { return .unknown(pid: pid) }
        let registered = ExecutableBuild(path: path)
        if registered == running { return .current(pid: pid, build: running) }
        if let image = Self.imagePath(of: pid), Self.resolved(image) != Self.resolved(path),
            ExecutableBuild(path: image) == running
        {
            return .current(pid: pid, build: running)
        }
        return .stale(pid: pid, running: running, registered: registered)
    }

    /// The path of the image `pid` executes, as `/proc/PID/exe` names it (nil once that file was
    /// deleted or replaced: the kernel then appends " (deleted)", and the image is stale anyway).
    private static func imagePath(of pid: pid_t) -> String? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"),
            !target.hasSuffix(" (deleted)")
        else { return nil }
        return target
    }

    /// `path` with every symbolic link resolved (itself when it cannot be).
    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// Before a signal: a provider that runs another build than the registered executable is
    /// invalidated (R10), so the signal launches the new build; the change is said on stderr. A
    /// provider a debugger holds is left alone (ending it would end the developer's session) and
    /// the message says to restart it. `registeredExecutable` is the configuration's executable (the
    /// caller has it: a signal does not read `domain.json` twice).
    func retireStaleProvider(registeredExecutable: String?) throws {
        guard
            case .stale(let pid, let running, let registered) = servingBuild(registeredExecutable: registeredExecutable)
        else { return }
        let now = registered.map { "the registered executable is now \($0)" } ?? "the registered executable is gone"
        if DebuggerPresence.isTraced(pid: pid) {
            StandardError.write(
                "contacts-host: warning: the provider under the debugger (pid \(pid)) runs an older build (\(running)); "
                    + "\(now): restart it in the debugger to run the new code\n")
            return
        }
        StandardError.write(
            "contacts-host: the running provider (pid \(pid)) runs an older build (\(running)); \(now): "
                + "invalidating it, so this signal launches the new build\n")
        _ = try invalidate(timeout: nil)
    }
}
