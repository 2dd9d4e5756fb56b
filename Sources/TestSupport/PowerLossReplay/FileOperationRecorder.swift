import Foundation

/// Records the file-system operations a command (and every process it starts) issues inside one
/// App Group, with `strace -f`, as a typed list the ``CrashReplayer`` cuts.
///
/// ```swift
/// let recording = try FileOperationRecorder(appGroup: path).record(host, ["add", "--given-name", "Ada"],
///                                                                 environment: environment)
/// ```
package struct FileOperationRecorder: Sendable {
    /// The system calls traced: everything that can create, change, name or sync a file, plus what
    /// moves a descriptor's position (`read`, `lseek`, `dup*`), which `write(2)` depends on, the
    /// working directory relative paths start from (`chdir`), and `mmap`, only to prove that no App
    /// Group file is written through a shared writable mapping (the store maps read-only). A
    /// `sync_file_range` is no barrier (it neither syncs metadata nor flushes the device's cache),
    /// so it gets no credit; `close` is traced but changes nothing either.
    package static let tracedCalls = [
        "open", "openat", "openat2", "creat", "write", "pwrite64", "writev", "pwritev", "pwritev2", "ftruncate",
        "truncate", "rename", "renameat", "renameat2", "unlink", "unlinkat", "mkdir", "mkdirat", "rmdir", "link",
        "linkat", "symlink", "symlinkat", "fsync", "fdatasync", "sync_file_range", "sync", "syncfs", "close",
        "fallocate", "mknod", "mknodat", "lseek", "read", "readv", "dup", "dup2", "dup3", "fcntl", "mmap",
        "copy_file_range", "sendfile", "splice", "chdir", "fchdir",
    ]

    /// The App Group directory whose operations are kept (it need not exist yet).
    package let appGroup: String
    /// Paths (relative to the App Group) whose operations are left out: e.g. append-only logs nothing
    /// reads back as state, which would only multiply crash states that differ in a log line.
    package let ignoredPaths: @Sendable (String) -> Bool

    /// A recorder for the App Group at `appGroup`.
    package init(appGroup: String, ignoring ignoredPaths: @escaping @Sendable (String) -> Bool = { _ in false }) {
        self.appGroup = appGroup
        self.ignoredPaths = ignoredPaths
    }

    /// What a recorded run did and printed.
    package struct Recording: Sendable {
        /// The App Group operations, in the order they completed.
        package var operations: [FileOperation]
        /// The traced command's own result (strace passes its exit status through).
        package var result: ProcessResult
    }

    /// Runs `executable` with `arguments` under `strace -f` (so a provider the host launches is
    /// traced too) and returns the App Group operations. strace returns when every traced process
    /// has exited, so a launched provider must be made to exit (a short idle timeout).
    package func record(
        _ executable: String, _ arguments: [String], environment: [String: String], stdin: Data? = nil
    ) throws -> Recording {
        let strace = try StraceTool.path()
        let logPath = NSTemporaryDirectory() + "/cps-strace-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        let result = try ProcessRunner.run(
            strace,
            [
                "-f", "-qq", "-y", "-xx", "-s", "67108864", "-e", "trace=" + Self.tracedCalls.joined(separator: ","),
                "-e", "signal=none", "-o", logPath, executable,
            ] + arguments, environment: environment, stdin: stdin)
        guard let log = FileManager.default.contents(atPath: logPath) else {
            throw StraceLogError(line: "", reason: "strace wrote no log (\(result))")
        }
        let calls = try StraceCall.parse(String(decoding: log, as: UTF8.self))
        let cwd = FileManager.default.currentDirectoryPath
        var translator = StraceTranslator(appGroup: appGroup, workingDirectory: cwd, ignoredPaths: ignoredPaths)
        for call in calls { try translator.translate(call) }
        return Recording(operations: translator.operations, result: result)
    }
}
