import Foundation

/// One file-system operation a recorded command issued inside the App Group, as the power-loss
/// replay needs it: which name or which bytes changed, and which barrier was asked for.
///
/// Paths are relative to the App Group directory (`""` is the App Group itself). Opens that create
/// nothing, reads and closes are not operations here: they change nothing a crash could keep or lose.
package enum FileOperation: Sendable, Equatable, CustomStringConvertible {
    /// Where a write lands.
    package enum Offset: Sendable, Equatable {
        /// At this byte offset (`pwrite`, or a `write` at the descriptor's tracked position).
        case at(Int)
        /// At the end of the file (a descriptor opened with `O_APPEND`).
        case end
    }

    /// `open` with `O_CREAT` (a new empty file unless it exists) and/or `O_TRUNC` (emptied).
    case create(path: String, truncate: Bool)
    /// `write`, `pwrite64`, `writev`: `bytes` at `offset`.
    case write(path: String, offset: Offset, bytes: [UInt8])
    /// `ftruncate`, `truncate`: the file's size becomes `size`.
    case truncate(path: String, size: Int)
    /// `mkdir`, `mkdirat`.
    case makeDirectory(path: String)
    /// `mknodat` of a FIFO (a doorbell pipe; it holds no data).
    case makeFIFO(path: String)
    /// `rename`, `renameat`, `renameat2`: `to` names what `from` named (replacing it).
    case rename(from: String, to: String)
    /// `link`, `linkat`: a second name for the same file.
    case link(from: String, to: String)
    /// `unlink`, `unlinkat`.
    case unlink(path: String)
    /// `rmdir`, `unlinkat(AT_REMOVEDIR)`.
    case removeDirectory(path: String)
    /// `fsync` or `fdatasync` of a file or a directory: the barrier the models honour.
    case sync(path: String, dataOnly: Bool)
    /// `fsync` of the App Group's parent directory: makes the App Group's own entry durable.
    case syncAppGroupParent
    /// `sync`, `syncfs`: everything issued so far is durable.
    case syncAll

    /// The path whose file or directory the operation changes or syncs (nil for the global ones).
    package var path: String? {
        switch self {
        case .create(let path, _), .write(let path, _, _), .truncate(let path, _), .makeDirectory(let path),
            .makeFIFO(let path), .unlink(let path), .removeDirectory(let path), .sync(let path, _):
            return path
        case .rename(_, let to), .link(_, let to): return to
        case .syncAppGroupParent, .syncAll: return nil
        }
    }

    /// Whether this is a barrier (`fsync`, `fdatasync`, `sync`).
    package var isBarrier: Bool {
        switch self {
        case .sync, .syncAppGroupParent, .syncAll: return true
        default: return false
        }
    }

    /// One line naming the call, its path and (for writes) the size and the first bytes written, so a
    /// failure message says exactly where the cut was.
    package var description: String {
        func shown(_ path: String) -> String { path.isEmpty ? "<App Group>" : path }
        switch self {
        case .create(let path, let truncate):
            return "open(\(shown(path)), O_CREAT\(truncate ? "|O_TRUNC" : ""))"
        case .write(let path, let offset, let bytes):
            let at: String
            switch offset {
            case .at(let value): at = "at \(value)"
            case .end: at = "at the end"
            }
            return "write(\(shown(path)), \(bytes.count) bytes \(at): \(Self.preview(bytes)))"
        case .truncate(let path, let size): return "ftruncate(\(shown(path)), \(size))"
        case .makeDirectory(let path): return "mkdir(\(shown(path)))"
        case .makeFIFO(let path): return "mkfifo(\(shown(path)))"
        case .rename(let from, let to): return "rename(\(shown(from)), \(shown(to)))"
        case .link(let from, let to): return "link(\(shown(from)), \(shown(to)))"
        case .unlink(let path): return "unlink(\(shown(path)))"
        case .removeDirectory(let path): return "rmdir(\(shown(path)))"
        case .sync(let path, let dataOnly): return "\(dataOnly ? "fdatasync" : "fsync")(\(shown(path)))"
        case .syncAppGroupParent: return "fsync(<the App Group's parent directory>)"
        case .syncAll: return "sync()"
        }
    }

    /// The first bytes of a write, printable, so two writes to one file can be told apart.
    private static func preview(_ bytes: [UInt8]) -> String {
        let head = bytes.prefix(48).map { byte -> String in
            (0x20..<0x7F).contains(byte) && byte != 0x22 && byte != 0x5C
                ? String(UnicodeScalar(byte)) : String(format: "\\x%02x", byte)
        }
        return "\"" + head.joined() + (bytes.count > 48 ? "\"…" : "\"")
    }
}
