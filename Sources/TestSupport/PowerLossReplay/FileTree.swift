import Foundation
import Glibc

/// A byte-exact picture of a directory tree (every directory, regular file and FIFO, with its
/// permission bits), which can be taken from disk, compared, hashed and written back.
///
/// The power-loss replay starts from one taken before the command and writes each crash state as
/// one; equal trees are one crash state, so `Hashable` is what keeps their number small.
package struct FileTree: Hashable, Sendable {
    /// One node of the tree.
    package enum Node: Hashable, Sendable {
        /// A directory and its permission bits.
        case directory(mode: UInt16)
        /// A regular file, its permission bits and its bytes.
        case file(mode: UInt16, bytes: [UInt8])
        /// A named pipe (no data) and its permission bits.
        case fifo(mode: UInt16)
    }

    /// Whether the root directory itself exists (a new App Group has none yet).
    package var rootExists: Bool
    /// Every node below the root, by path relative to it.
    package var nodes: [String: Node]

    /// A tree with these nodes.
    package init(rootExists: Bool, nodes: [String: Node]) {
        self.rootExists = rootExists
        self.nodes = nodes
    }

    /// The tree at `path` as it is on disk now (no root when `path` does not exist).
    ///
    /// Throws for a symbolic link or a socket: the App Group holds neither, and the replay could
    /// not model them.
    package static func capture(_ path: String) throws -> FileTree {
        var info = stat()
        guard lstat(path, &info) == 0 else { return FileTree(rootExists: false, nodes: [:]) }
        var nodes: [String: Node] = [:]
        func walk(_ directory: String, _ prefix: String) throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
                let full = directory + "/" + name
                let relative = prefix.isEmpty ? name : prefix + "/" + name
                var entry = stat()
                guard lstat(full, &entry) == 0 else { throw FileTreeError(path: full, reason: "vanished") }
                let mode = UInt16(entry.st_mode & 0o7777)
                switch entry.st_mode & S_IFMT {
                case S_IFDIR:
                    nodes[relative] = .directory(mode: mode)
                    try walk(full, relative)
                case S_IFREG:
                    guard let data = FileManager.default.contents(atPath: full) else {
                        throw FileTreeError(path: full, reason: "unreadable")
                    }
                    nodes[relative] = .file(mode: mode, bytes: [UInt8](data))
                case S_IFIFO: nodes[relative] = .fifo(mode: mode)
                default: throw FileTreeError(path: full, reason: "neither a directory, a file nor a FIFO")
                }
            }
        }
        try walk(path, "")
        return FileTree(rootExists: true, nodes: nodes)
    }

    /// Writes the tree at `path`, which must not exist (its parent must). Nothing is written when the
    /// tree has no root.
    package func write(to path: String) throws {
        guard rootExists else { return }
        guard mkdir(path, 0o700) == 0 else { throw FileTreeError(path: path, reason: "mkdir: errno \(errno)") }
        // Sorted, so every directory is made before what it holds.
        for (relative, node) in nodes.sorted(by: { $0.key < $1.key }) {
            let full = path + "/" + relative
            switch node {
            case .directory(let mode):
                guard mkdir(full, mode_t(mode)) == 0, chmod(full, mode_t(mode)) == 0 else {
                    throw FileTreeError(path: full, reason: "mkdir: errno \(errno)")
                }
            case .file(let mode, let bytes):
                guard FileManager.default.createFile(atPath: full, contents: Data(bytes)),
                    chmod(full, mode_t(mode)) == 0
                else { throw FileTreeError(path: full, reason: "create: errno \(errno)") }
            case .fifo(let mode):
                guard mkfifo(full, mode_t(mode)) == 0, chmod(full, mode_t(mode)) == 0 else {
                    throw FileTreeError(path: full, reason: "mkfifo: errno \(errno)")
                }
            }
        }
    }

    /// The paths whose node differs between the two trees (for a failure message).
    package func differences(from other: FileTree) -> [String] {
        var paths = Set(nodes.keys).union(other.nodes.keys).filter { nodes[$0] != other.nodes[$0] }.sorted()
        if rootExists != other.rootExists { paths.insert("<App Group>", at: 0) }
        return paths
    }
}

/// A tree could not be read or written.
package struct FileTreeError: Error, CustomStringConvertible {
    /// The file or directory.
    package let path: String
    /// What went wrong.
    package let reason: String
    /// The path and the reason.
    package var description: String { "\(path): \(reason)" }
}
