import Foundation
import Glibc

/// Turns strace calls into the App Group's ``FileOperation``s.
///
/// A `write(2)` lands at its descriptor's position, which strace does not print, so the position is
/// tracked per open file description (shared by `dup`s, moved by `read`, `write` and `lseek`), keyed
/// by descriptor number and `-y` path: processes and threads are not told apart, which is sound as long
/// as no two processes `write(2)` one path through the same descriptor number at once (the store
/// writes its journal with `pwrite` and its new files through fresh descriptors). Anything the
/// replay cannot model faithfully (a shared writable mapping, `copy_file_range`, a symlink, an
/// exchange) throws, so an unmodelled write can never pass silently.
struct StraceTranslator {
    /// An open file description: its position and whether it appends.
    private final class Description {
        var offset = 0
        let append: Bool
        init(append: Bool) { self.append = append }
    }

    private struct Key: Hashable {
        let number: Int
        let path: String
    }

    /// The App Group's path as given and as the kernel resolves it (`-y` prints resolved paths).
    private let roots: [String]
    private let parents: [String]
    /// The working directory of relative paths (`chdir` moves it; one for all processes, as the
    /// recorded programs use absolute paths and only a shell's `mkdir -p` changes directory).
    private var workingDirectory: String
    private let ignoredPaths: @Sendable (String) -> Bool
    private var descriptions: [Key: Description] = [:]
    /// The operations so far.
    private(set) var operations: [FileOperation] = []

    init(appGroup: String, workingDirectory: String, ignoredPaths: @escaping @Sendable (String) -> Bool) {
        let given = Self.normalized(appGroup)
        var resolved = given
        if let real = realpath(given, nil) {
            resolved = String(cString: real)
            free(real)
        } else if let real = realpath((given as NSString).deletingLastPathComponent, nil) {
            resolved = String(cString: real) + "/" + (given as NSString).lastPathComponent
            free(real)
        }
        roots = Array(Set([given, resolved]))
        parents = roots.map { ($0 as NSString).deletingLastPathComponent }
        self.workingDirectory = workingDirectory
        self.ignoredPaths = ignoredPaths
    }

    /// `path` relative to the App Group, or nil outside it.
    private func relative(_ path: String) -> String? {
        for root in roots {
            if path == root { return "" }
            if path.hasPrefix(root + "/") { return String(path.dropFirst(root.count + 1)) }
        }
        return nil
    }

    /// Removes `.`, `..` and repeated slashes (the paths here never go through symlinks).
    private static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
            } else {
                parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The absolute path a path argument names, relative to its directory descriptor argument.
    private func resolve(_ directory: String?, _ pathArgument: String, line: String) throws -> String {
        let path = String(decoding: try StraceCall.bytes(ofString: pathArgument, line: line), as: UTF8.self)
        if path.hasPrefix("/") { return Self.normalized(path) }
        var base = workingDirectory
        if let directory {
            guard let annotated = try StraceCall.descriptor(directory, line: line).path else {
                throw StraceLogError(line: line, reason: "a directory descriptor without its -y path")
            }
            base = annotated
        }
        return Self.normalized(base + "/" + path)
    }

    /// The App Group path of a descriptor argument (nil outside it, or for a deleted file).
    private func descriptorPath(_ argument: String, line: String) throws -> (key: Key, path: String)? {
        let (number, annotated) = try StraceCall.descriptor(argument, line: line)
        guard let number, let annotated, !annotated.hasSuffix(" (deleted)"), let path = relative(annotated) else {
            return nil
        }
        return (Key(number: number, path: annotated), path)
    }

    private mutating func emit(_ operation: FileOperation) {
        if let path = operation.path, ignoredPaths(path) { return }
        if case .rename(let from, _) = operation, ignoredPaths(from) { return }
        operations.append(operation)
    }

    /// Adds the operations of one call.
    mutating func translate(_ call: StraceCall) throws {
        guard call.succeeded else { return }
        let arguments = call.arguments
        let line = call.line
        func argument(_ index: Int) throws -> String {
            guard index < arguments.count else { throw StraceLogError(line: line, reason: "missing argument") }
            return arguments[index]
        }
        switch call.name {
        case "open", "openat", "creat":
            let flags = call.name == "creat" ? "O_CREAT|O_TRUNC" : try argument(call.name == "open" ? 1 : 2)
            guard let opened = try descriptorPath(call.result, line: line) else { return }
            descriptions[opened.key] = Description(append: flags.contains("O_APPEND"))
            if flags.contains("O_CREAT") || flags.contains("O_TRUNC") {
                emit(.create(path: opened.path, truncate: flags.contains("O_TRUNC")))
            }
        case "openat2":
            if try descriptorPath(call.result, line: line) != nil {
                throw StraceLogError(line: line, reason: "openat2 into the App Group is not modelled")
            }
        case "write", "writev", "pwrite64", "pwritev", "pwritev2":
            guard let target = try descriptorPath(try argument(0), line: line), let count = call.returnValue else {
                return
            }
            var bytes: [UInt8]
            if call.name == "write" || call.name == "pwrite64" {
                bytes = try StraceCall.bytes(ofString: try argument(1), line: line)
            } else {
                bytes = try Self.vectorBytes(try argument(1), line: line)
            }
            bytes = Array(bytes.prefix(count))
            let offset: FileOperation.Offset
            if call.name.hasPrefix("pwrite") {
                // pwrite64(fd, buf, count, offset), pwritev(fd, iov, iovcnt, offset[, flags]).
                guard let at = Int(try argument(3)) else {
                    throw StraceLogError(line: line, reason: "no offset")
                }
                offset = .at(at)
            } else {
                guard let description = descriptions[target.key] else {
                    throw StraceLogError(line: line, reason: "a write(2) at an unknown position")
                }
                offset = description.append ? .end : .at(description.offset)
                description.offset += count
            }
            emit(.write(path: target.path, offset: offset, bytes: bytes))
        case "read", "readv":
            if let target = try descriptorPath(try argument(0), line: line), let count = call.returnValue {
                descriptions[target.key]?.offset += count
            }
        case "lseek":
            if let target = try descriptorPath(try argument(0), line: line), let position = call.returnValue {
                descriptions[target.key]?.offset = position
            }
        case "dup", "dup2", "dup3", "fcntl":
            if call.name == "fcntl", !(try argument(1)).hasPrefix("F_DUPFD") { return }
            guard let source = try descriptorPath(try argument(0), line: line),
                let copy = try descriptorPath(call.result, line: line)
            else { return }
            descriptions[copy.key] = descriptions[source.key]
        case "ftruncate":
            guard let target = try descriptorPath(try argument(0), line: line), let size = Int(try argument(1)) else {
                return
            }
            emit(.truncate(path: target.path, size: size))
        case "truncate":
            guard let path = relative(try resolve(nil, try argument(0), line: line)), let size = Int(try argument(1))
            else { return }
            emit(.truncate(path: path, size: size))
        case "fsync", "fdatasync":
            let (_, annotated) = try StraceCall.descriptor(try argument(0), line: line)
            guard let annotated else { return }
            if let path = relative(annotated) {
                emit(.sync(path: path, dataOnly: call.name == "fdatasync"))
            } else if parents.contains(annotated) {
                emit(.syncAppGroupParent)
            }
        case "chdir":
            workingDirectory = try resolve(nil, try argument(0), line: line)
        case "fchdir":
            if let path = try StraceCall.descriptor(try argument(0), line: line).path { workingDirectory = path }
        case "sync", "syncfs":
            emit(.syncAll)
        case "mkdir", "mkdirat":
            let directory = call.name == "mkdirat" ? try argument(0) : nil
            let pathArgument = try argument(call.name == "mkdirat" ? 1 : 0)
            if let path = relative(try resolve(directory, pathArgument, line: line)) {
                emit(.makeDirectory(path: path))
            }
        case "mknod", "mknodat":
            let at = call.name == "mknodat"
            guard let path = relative(try resolve(at ? try argument(0) : nil, try argument(at ? 1 : 0), line: line))
            else { return }
            let mode = try argument(at ? 2 : 1)
            if mode.contains("S_IFIFO") {
                emit(.makeFIFO(path: path))
            } else if mode.contains("S_IFREG") || !mode.contains("S_IF") {
                emit(.create(path: path, truncate: false))
            } else {
                throw StraceLogError(line: line, reason: "a device node in the App Group is not modelled")
            }
        case "rename", "renameat", "renameat2", "link", "linkat":
            let at = call.name.hasSuffix("at") || call.name == "renameat2"
            let from = try resolve(at ? try argument(0) : nil, try argument(at ? 1 : 0), line: line)
            let to = try resolve(at ? try argument(2) : nil, try argument(at ? 3 : 1), line: line)
            if call.name == "renameat2", arguments.count > 4, arguments[4].contains("RENAME_EXCHANGE") {
                throw StraceLogError(line: line, reason: "RENAME_EXCHANGE is not modelled")
            }
            switch (relative(from), relative(to)) {
            case (let from?, let to?):
                emit(call.name.hasPrefix("link") ? .link(from: from, to: to) : .rename(from: from, to: to))
            case (nil, nil): return
            default: throw StraceLogError(line: line, reason: "a name moved into or out of the App Group")
            }
        case "unlink", "unlinkat", "rmdir":
            let at = call.name == "unlinkat"
            guard let path = relative(try resolve(at ? try argument(0) : nil, try argument(at ? 1 : 0), line: line))
            else { return }
            let directory = call.name == "rmdir" || (at && arguments.count > 2 && arguments[2].contains("AT_REMOVEDIR"))
            emit(directory ? .removeDirectory(path: path) : .unlink(path: path))
        case "symlink", "symlinkat":
            let target = try resolve(
                call.name == "symlinkat" ? try argument(1) : nil, try argument(arguments.count - 1), line: line)
            if relative(target) != nil {
                throw StraceLogError(line: line, reason: "a symlink in the App Group is not modelled")
            }
        case "mmap":
            // A shared writable mapping writes without a system call: the replay would miss it.
            guard arguments.count == 6, try descriptorPath(arguments[4], line: line) != nil else { return }
            if arguments[2].contains("PROT_WRITE") && arguments[3].contains("MAP_SHARED") {
                throw StraceLogError(line: line, reason: "a shared writable mapping of an App Group file")
            }
        case "fallocate", "copy_file_range", "sendfile", "splice":
            let target = call.name == "fallocate" || call.name == "sendfile" ? 0 : 2
            if try descriptorPath(try argument(target), line: line) != nil {
                throw StraceLogError(line: line, reason: "\(call.name) into the App Group is not modelled")
            }
        default:
            return
        }
    }

    /// The bytes of a `writev` vector (`[{iov_base="…", iov_len=5}, …]`), in order.
    private static func vectorBytes(_ argument: String, line: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = Substring(argument)
        while let start = rest.range(of: "iov_base=\"") {
            let afterQuote = rest[start.upperBound...]
            guard let end = afterQuote.firstIndex(of: "\"") else {
                throw StraceLogError(line: line, reason: "an unterminated iov_base")
            }
            var literal = "\"" + afterQuote[..<end] + "\""
            if afterQuote[end...].hasPrefix("\"...") { literal += "..." }
            bytes += try StraceCall.bytes(ofString: literal, line: line)
            rest = afterQuote[afterQuote.index(after: end)...]
        }
        return bytes
    }
}
