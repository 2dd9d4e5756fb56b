import Glibc

/// `posix_spawn` and `exec` with Swift strings: the argument and environment arrays are C strings
/// for the call only (freed after it), the one place the simulator's tools build them.
package enum ProcessSpawn {
    /// `POSIX_SPAWN_SETSID`, which Glibc's Swift overlay does not import: the child leads a session
    /// of its own. The provider is launched so (it outlives the host, like a daemon's child), and so
    /// are the bench's stand-ins for it and for other programs' load: on Linux a session is also a
    /// scheduling group (autogroup; a desktop's session scopes likewise), so where a process is
    /// placed changes how soon it gets a busy processor back.
    package static let newSessionFlag: Int32 = 0x80

    /// Starts `path` with `arguments` (including argument 0) and `environment`; returns the child's
    /// pid, or the `posix_spawn` error number.
    package static func spawn(
        _ path: String, arguments: [String], environment: [String: String],
        fileActions: UnsafePointer<posix_spawn_file_actions_t>?, attributes: UnsafePointer<posix_spawnattr_t>?
    ) -> Result<pid_t, SpawnError> {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, fileActions, attributes, argv, envp)
        return result == 0 ? .success(pid) : .failure(SpawnError(code: result))
    }

    /// ``spawn(_:arguments:environment:fileActions:attributes:)`` of a child that leads a session of
    /// its own (``newSessionFlag``), with no signal blocked (a thread that blocks some, a test's, would
    /// pass its mask on) and `defaultSignals` at their default action (nil: every signal): how the
    /// host launches a provider, and how `contacts-bench` starts the provider's stand-in.
    package static func spawnInNewSession(
        _ path: String, arguments: [String], environment: [String: String],
        fileActions: UnsafePointer<posix_spawn_file_actions_t>?, defaultSignals: [Int32]?
    ) -> Result<pid_t, SpawnError> {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(newSessionFlag | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        if let defaultSignals {
            sigemptyset(&defaults)
            for number in defaultSignals { sigaddset(&defaults, number) }
        } else {
            sigfillset(&defaults)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        return spawn(
            path, arguments: arguments, environment: environment, fileActions: fileActions, attributes: &attributes)
    }

    /// Replaces this process with `path` run with `arguments` (including argument 0) and
    /// `environment` (this process's when nil); returns only when that failed, with the error number.
    package static func exec(_ path: String, arguments: [String], environment: [String: String]? = nil) -> Int32 {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp ?? [] { free(pointer) }
        }
        if let envp { execve(path, argv, envp) } else { execv(path, argv) }
        return errno
    }

    /// A `posix_spawn` failure.
    package struct SpawnError: Error, CustomStringConvertible {
        /// The error number.
        package let code: Int32
        /// The system's words for it.
        package var description: String { String(cString: strerror(code)) }
    }
}
