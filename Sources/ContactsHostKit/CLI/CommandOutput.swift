import CommandLineToolkit
import Foundation
import Glibc

/// Where a command writes: results on stdout, diagnostics on stderr.
package protocol CommandOutput: AnyObject {
    func out(_ text: String)
    func err(_ text: String)
}

/// The process's standard streams.
package final class StandardOutput: CommandOutput {
    package init() {}

    package func out(_ text: String) {
        let code = Self.write(text + "\n", to: STDOUT_FILENO)
        if code == EPIPE {
            // The reader went away (`contacts-host list | head -1`): end quietly, as SIGPIPE would have
            // (main ignores SIGPIPE, and FileHandle.write would crash in a `try!`).
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
            exit(ExitCode.failure)
        }
        if code != 0 {
            err("error: cannot write to standard output: \(String(cString: strerror(code)))")
            exit(ExitCode.failure)
        }
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
