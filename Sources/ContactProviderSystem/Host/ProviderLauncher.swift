import AppGroupStore
import CommandLineToolkit
import Foundation
import Glibc

/// Starts a provider executable the way the system launches an extension on demand.
///
/// The process is detached (its own session), its stdin is `/dev/null` and its output goes to
/// `run/<domain>/provider.log`; the App Group is passed both as `--app-group` and in
/// `CONTACT_PROVIDER_APP_GROUP`. It leads its own process group, and `ProcessReaper.tagVariable` in
/// its environment names its domain's run directory. In a conformance run that has a cgroup of its
/// own (``LaunchCgroup``), it starts inside it.
package enum ProviderLauncher {
    /// Why a launch failed.
    package struct LaunchError: Error, CustomStringConvertible {
        package let description: String
    }

    /// Launches `executable` for `paths`' domain with `extraEnvironment` added; returns its pid.
    @discardableResult
    package static func launch(
        executable: String, paths: DomainPaths, extraArguments: [String] = [],
        extraEnvironment: [String: String] = [:], onExit: (@Sendable () -> Void)? = nil
    ) throws -> pid_t {
        guard access(executable, X_OK) == 0 else {
            throw LaunchError(
                description: "the provider executable '\(executable)' does not exist or is not executable")
        }
        // Checked again at each launch: what `enable` accepted may have been made writable since.
        do {
            try TrustedExecutable.check(executable)
        } catch {
            throw LaunchError(description: "the provider executable '\(executable)': \(error)")
        }
        // Its bundle (Bundle.main's Info.plist, issue 40) exists before it starts, so it never restarts
        // itself to get one; where it cannot be written, the provider says so itself.
        _ = try? ExecutableBundle.ensure(forExecutable: (executable as NSString).resolvingSymlinksInPath)
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)
        ProviderLog.rotateIfNeeded(paths.providerLog)
        let logFD = try SecureFile.open(paths.providerLog, flags: O_WRONLY | O_APPEND, create: true)
        defer { close(logFD) }
        posix_spawn_file_actions_adddup2(&fileActions, logFD, 1)
        posix_spawn_file_actions_adddup2(&fileActions, logFD, 2)
        // Close every other inherited descriptor: a provider that kept the launching host's
        // stdout pipe open would make anyone reading that pipe wait for the provider to exit.
        for fd in openDescriptors() where fd > 2 {
            posix_spawn_file_actions_addclose(&fileActions, fd)
        }

        let arguments =
            [executable, "--app-group", paths.appGroup.path, "--domain", paths.domain, "--launched-by-system"]
            + extraArguments
        var environment = ProcessInfo.processInfo.environment
        // The device's time zone and language, when the domain sets them (the conformance kit does).
        if let device = try? DomainConfiguration.load(from: paths.configuration).deviceEnvironment {
            environment.merge(device) { _, device in device }
        }
        environment.merge(extraEnvironment) { _, extra in extra }
        environment[AppGroup.environmentVariable] = paths.appGroup.path
        // Inherited by whatever the provider starts: how `ProcessReaper` finds it all when the domain
        // is disabled or a conformance run ends, even a child that left the provider's process group.
        environment[ProcessReaper.tagVariable] = paths.runDirectory
        // A provider launched into the kit's temporary App Group skips durability barriers there too.
        environment[Durability.environmentVariable] = Durability.ephemeralRoot(containing: paths.appGroup.path)
        // The provider's UserDefaults suites live in the App Group (see `AppGroup.preferencesDirectory`).
        environment = paths.appGroup.environmentForPreferences(environment)
        // In a conformance run with a cgroup of its own (issue 42 item 8), the provider starts inside it:
        // the shell moves itself in, then becomes the provider (same pid), before its first instruction.
        // A provider that could not join still runs; the tag and its process group still find it.
        var spawnPath = executable
        var spawnArguments = arguments
        if let procs = LaunchCgroup.procsFile(forRunDirectory: paths.runDirectory) {
            spawnPath = "/bin/sh"
            spawnArguments = ["/bin/sh", "-c", "{ echo $$ > \"$0\"; } 2>/dev/null; exec \"$@\"", procs] + arguments
        }
        let pid: pid_t
        // A session of its own: the provider outlives the host that launched it, like a daemon's child.
        switch ProcessSpawn.spawnInNewSession(
            spawnPath, arguments: spawnArguments, environment: environment, fileActions: &fileActions,
            defaultSignals: [SIGPIPE, SIGTERM, SIGINT, SIGCHLD])
        {
        case .success(let started): pid = started
        case .failure(let error): throw LaunchError(description: "could not launch '\(executable)': \(error)")
        }
        // Reap it when it exits, so a long-lived host (a test process) collects no zombies.
        let child = pid
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0, errno == EINTR {}
            onExit?()
        }
        return pid
    }

    private static func openDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }.filter { fcntl($0, F_GETFD) != -1 }
    }
}
