import AppGroupStore
import CommandLineToolkit
import Foundation
import Glibc

/// Where a command writes: results on stdout, diagnostics on stderr.
package protocol CommandOutput: AnyObject {
    func out(_ text: String)
    func err(_ text: String)
}

/// The process's standard streams.
///
/// A failed write to standard output ends the command only when it has committed nothing: a command
/// that made a change durable runs to its end and exits 0, with the failure as a warning
/// (``HostTool/main(arguments:output:commands:)`` reads ``failure``), or a script that retries it would
/// repeat the change (issue 42, item 1). Later output is dropped once a write has failed.
package final class StandardOutput: CommandOutput {
    /// The `errno` of the first failed write to standard output, if one failed.
    package private(set) var failure: Int32?

    package init() {}

    package func out(_ text: String) {
        guard failure == nil else { return }
        let code = Self.write(text + "\n", to: STDOUT_FILENO)
        guard code != 0 else { return }
        if CommitWitness.current?.hasCommitted == true {
            failure = code
            return
        }
        if code == EPIPE {
            // The reader went away (`contacts-host list | head -1`): end quietly, as SIGPIPE would have
            // (main ignores SIGPIPE, and FileHandle.write would crash in a `try!`).
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
            exit(ExitCode.failure)
        }
        err("error: cannot write to standard output: \(String(cString: strerror(code)))")
        exit(ExitCode.failure)
    }

    /// The warning a committed command prints instead of failing when its output could not be written.
    package static func committedButUnprinted(_ code: Int32) -> String {
        "warning: the change is committed, but its output could not be written to standard output ("
            + String(cString: strerror(code))
            + "); do not retry it (a retry would repeat the change): read the result back with `contacts-host list`"
    }

    package func err(_ text: String) {
        _ = Self.write(text + "\n", to: STDERR_FILENO)
    }

    /// Writes all of `text` to `fd`; returns 0 or the `errno` of the failed write.
    private static func write(_ text: String, to fd: Int32) -> Int32 {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            written += n
        }
        return 0
    }
}

/// Captures output in memory (tests).
package final class CapturedOutput: CommandOutput {
    package private(set) var stdout = ""
    package private(set) var stderr = ""

    package init() {}

    package func out(_ text: String) { stdout += text + "\n" }
    package func err(_ text: String) { stderr += text + "\n" }
}
