import Glibc

/// Why a named pipe (a doorbell, reply or watch FIFO) could not be made, opened or written.
///
/// The pipes' own error, not the store's: a caller tells "the provider's doorbell is unusable"
/// from "the database is damaged" by type. The messages name the pipe's path and what failed.
package enum PipeError: Error, Equatable, CustomStringConvertible {
    /// A system call on the pipe failed (`mkfifo`, `open`, `write`, …) with `errno`.
    case io(path: String, operation: String, errno: Int32)
    /// The path is refused: a symbolic link, not a FIFO, or someone else's.
    case unsafePath(path: String, reason: String)

    package var description: String {
        switch self {
        case .io(let path, let operation, let code):
            return "\(path): \(operation) failed: \(String(cString: strerror(code)))"
        case .unsafePath(let path, let reason):
            return "\(path): refused: \(reason) (`contacts-host doctor --repair` fixes it)"
        }
    }
}
