import Foundation

/// An in-memory file system that applies recorded ``FileOperation``s and remembers, beside what a
/// process sees, what each kind of barrier has made durable: the state the ``CrashReplayer`` reads
/// each ``PersistenceModel``'s crash state from.
///
/// Files and directories are inodes, so data follows a file through renames and links, and a
/// directory's durable entries can name an inode its live entries no longer do.
struct SimulatedFileSystem {
    enum Kind { case file, directory, fifo }

    struct Inode {
        var kind: Kind
        var mode: UInt16
        var bytes: [UInt8] = []
        var entries: [String: Int] = [:]
    }

    /// Inode 0 is the App Group directory.
    private(set) var inodes: [Int: Inode] = [:]
    private var nextInode = 1
    /// Whether the App Group directory exists (live).
    private(set) var rootExists: Bool
    /// Each file's bytes as of its last `fsync`/`fdatasync` (the initial tree counts as synced).
    private(set) var durableBytes: [Int: [UInt8]] = [:]
    /// Each directory's entries as of its last `fsync` (POSIX's rule for names).
    private(set) var durableEntries: [Int: [String: Int]] = [:]
    /// Whether the App Group's own entry is durable (its parent was synced after it was made).
    private(set) var durableRoot: Bool
    /// Every directory's entries as of the last barrier of any file (a journal commit).
    private(set) var committedEntries: [Int: [String: Int]] = [:]
    /// Whether the App Group existed at the last barrier.
    private(set) var committedRoot: Bool
    /// The byte ranges of each file written since its last `fsync`.
    private(set) var unsynced: [Int: [Range<Int>]] = [:]

    /// A file system holding `tree`, all of it durable (it is what was on disk before the command).
    init(_ tree: FileTree) throws {
        rootExists = tree.rootExists
        durableRoot = tree.rootExists
        committedRoot = tree.rootExists
        inodes[0] = Inode(kind: .directory, mode: 0o700)
        for (path, node) in tree.nodes.sorted(by: { $0.key < $1.key }) {
            let (parent, name) = try parentAndName(path)
            let inode: Inode
            switch node {
            case .directory(let mode): inode = Inode(kind: .directory, mode: mode)
            case .file(let mode, let bytes): inode = Inode(kind: .file, mode: mode, bytes: bytes)
            case .fifo(let mode): inode = Inode(kind: .fifo, mode: mode)
            }
            inodes[parent]!.entries[name] = allocate(inode)
        }
        for (id, inode) in inodes {
            if inode.kind == .directory { durableEntries[id] = inode.entries }
            if inode.kind == .file { durableBytes[id] = inode.bytes }
        }
        committedEntries = durableEntries
    }

    private mutating func allocate(_ inode: Inode) -> Int {
        let id = nextInode
        nextInode += 1
        inodes[id] = inode
        return id
    }

    /// The inode `path` names now, or nil.
    func lookup(_ path: String) -> Int? {
        guard rootExists else { return nil }
        var current = 0
        for part in path.split(separator: "/") {
            guard let next = inodes[current]?.entries[String(part)] else { return nil }
            current = next
        }
        return current
    }

    /// The directory inode that holds `path`, and `path`'s last component.
    private func parentAndName(_ path: String) throws -> (Int, String) {
        guard !path.isEmpty else { throw ReplayError("the App Group itself has no directory in the App Group") }
        let slash = path.lastIndex(of: "/")
        let name = String(slash.map { path[path.index(after: $0)...] } ?? path[...])
        let parentPath = String(slash.map { path[..<$0] } ?? "")
        guard let parent = lookup(parentPath), inodes[parent]?.kind == .directory else {
            throw ReplayError("\(path): its directory does not exist in the replayed tree")
        }
        return (parent, name)
    }

    private func existing(_ path: String) throws -> Int {
        guard let id = lookup(path) else { throw ReplayError("\(path) does not exist in the replayed tree") }
        return id
    }

    /// Applies `operation` as the process saw it, and what it made durable.
    mutating func apply(_ operation: FileOperation) throws {
        switch operation {
        case .create(let path, let truncate):
            if let id = lookup(path) {
                if truncate, inodes[id]!.kind == .file { resize(id, to: 0) }
            } else {
                let (parent, name) = try parentAndName(path)
                inodes[parent]!.entries[name] = allocate(Inode(kind: .file, mode: 0o600))
            }
        case .write(let path, let offset, let bytes):
            let id = try existing(path)
            guard inodes[id]!.kind == .file else { return }  // a FIFO keeps nothing
            let start: Int
            switch offset {
            case .at(let value): start = value
            case .end: start = inodes[id]!.bytes.count
            }
            write(id, bytes[...], at: start)
        case .truncate(let path, let size):
            resize(try existing(path), to: size)
        case .makeDirectory(let path):
            if path.isEmpty {
                rootExists = true
            } else {
                let (parent, name) = try parentAndName(path)
                inodes[parent]!.entries[name] = allocate(Inode(kind: .directory, mode: 0o700))
            }
        case .makeFIFO(let path):
            let (parent, name) = try parentAndName(path)
            inodes[parent]!.entries[name] = allocate(Inode(kind: .fifo, mode: 0o600))
        case .rename(let from, let to), .link(let from, let to):
            let id = try existing(from)
            let (fromParent, fromName) = try parentAndName(from)
            let (toParent, toName) = try parentAndName(to)
            if case .rename = operation { inodes[fromParent]!.entries[fromName] = nil }
            inodes[toParent]!.entries[toName] = id
        case .unlink(let path), .removeDirectory(let path):
            _ = try existing(path)
            let (parent, name) = try parentAndName(path)
            inodes[parent]!.entries[name] = nil
        case .sync(let path, _):
            let id = try existing(path)
            switch inodes[id]!.kind {
            case .file:
                durableBytes[id] = inodes[id]!.bytes
                unsynced[id] = nil
            case .directory: durableEntries[id] = inodes[id]!.entries
            case .fifo: break
            }
            commit()
        case .syncAppGroupParent:
            durableRoot = rootExists
            commit()
        case .syncAll:
            for (id, inode) in inodes {
                if inode.kind == .file { durableBytes[id] = inode.bytes }
                if inode.kind == .directory { durableEntries[id] = inode.entries }
            }
            unsynced = [:]
            durableRoot = rootExists
            commit()
        }
    }

    /// A barrier commits the journal: every name as it is now (the ``PersistenceModel/barrierOnly`` rule).
    private mutating func commit() {
        committedRoot = rootExists
        committedEntries = inodes.filter { $0.value.kind == .directory }.mapValues(\.entries)
    }

    /// Writes `bytes` at `start` (zero-filling a gap), remembering the range as unsynced.
    mutating func write(_ id: Int, _ bytes: ArraySlice<UInt8>, at start: Int) {
        let end = start + bytes.count
        if inodes[id]!.bytes.count < end {
            inodes[id]!.bytes.append(contentsOf: repeatElement(0, count: end - inodes[id]!.bytes.count))
        }
        inodes[id]!.bytes.replaceSubrange(start..<end, with: bytes)
        if !bytes.isEmpty { unsynced[id, default: []].append(start..<end) }
    }

    private mutating func resize(_ id: Int, to size: Int) {
        let count = inodes[id]!.bytes.count
        if size < count {
            inodes[id]!.bytes.removeSubrange(size..<count)
        } else if size > count {
            inodes[id]!.bytes.append(contentsOf: repeatElement(0, count: size - count))
        }
        unsynced[id] = unsynced[id]?.compactMap { range in
            range.lowerBound < size ? range.lowerBound..<min(range.upperBound, size) : nil
        }
    }

    /// The tree reached from the root through `entries`, with each file's bytes from `bytes`.
    func tree(
        rootExists root: Bool, entries: (Int) -> [String: Int], bytes: (Int) -> [UInt8]
    ) -> FileTree {
        var nodes: [String: FileTree.Node] = [:]
        guard root else { return FileTree(rootExists: false, nodes: [:]) }
        func walk(_ directory: Int, _ prefix: String, depth: Int) {
            guard depth < 64 else { return }  // a cycle cannot happen, but a bug must not hang a test
            for (name, id) in entries(directory) {
                guard let inode = inodes[id] else { continue }
                let path = prefix.isEmpty ? name : prefix + "/" + name
                switch inode.kind {
                case .directory:
                    nodes[path] = .directory(mode: inode.mode)
                    walk(id, path, depth: depth + 1)
                case .file: nodes[path] = .file(mode: inode.mode, bytes: bytes(id))
                case .fifo: nodes[path] = .fifo(mode: inode.mode)
                }
            }
        }
        walk(0, "", depth: 0)
        return FileTree(rootExists: true, nodes: nodes)
    }
}

/// The recorded operations do not fit the tree they are replayed on.
package struct ReplayError: Error, CustomStringConvertible {
    /// What did not fit.
    package let description: String
    init(_ description: String) { self.description = description }
}
