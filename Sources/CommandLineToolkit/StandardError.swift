import Foundation
import Glibc

/// Writes diagnostics to standard error without ever stopping the process.
///
/// `FileHandle.write` traps when the write fails (a full disk under a redirected log,
/// `2>/dev/full`, a closed descriptor): a provider must never die because it cannot log
/// (issue 10 item 8). A failed or short write here drops the rest of the line and returns.
package enum StandardError {
    /// Writes `text` to file descriptor 2; errors are ignored on purpose (see above).
    package static func write(_ text: String) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                Glibc.write(STDERR_FILENO, buffer.baseAddress! + written, buffer.count - written)
            }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return }
            written += n
        }
    }
}
