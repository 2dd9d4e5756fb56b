import Foundation
import Glibc
import TestSupport
import Testing

/// One entry of an App Group tree, as `lstat` sees it.
struct ReliabilityTreeEntry: Equatable, CustomStringConvertible {
    var type: mode_t
    var mode: mode_t
    var uid: uid_t
    /// The bytes of a regular file (FIFOs are never read: that would block or steal a doorbell).
    var contents: Data?

    var description: String {
        let kind: String
        switch type {
        case S_IFDIR: kind = "directory"
        case S_IFREG: kind = "file"
        case S_IFIFO: kind = "fifo"
        case S_IFLNK: kind = "symlink"
        default: kind = "type \(String(type, radix: 8))"
        }
        return "\(kind) \(String(mode, radix: 8)) uid \(uid)\(contents.map { " \($0.count) bytes" } ?? "")"
    }
}

enum ReliabilityTree {
    /// Every entry under `root` (and `root` itself, as ""), by relative path, walked with `lstat`
    /// (symbolic links are reported, never followed). Entries that vanish mid-walk are skipped.
    static func walk(_ root: String, readContents: Bool = true) -> [String: ReliabilityTreeEntry] {
        var result: [String: ReliabilityTreeEntry] = [:]
        var pending = [""]
        while let relative = pending.popLast() {
            let path = relative.isEmpty ? root : root + "/" + relative
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let type = info.st_mode & S_IFMT
            var entry = ReliabilityTreeEntry(type: type, mode: info.st_mode & 0o7777, uid: info.st_uid, contents: nil)
            if type == S_IFREG, readContents { entry.contents = FileManager.default.contents(atPath: path) }
            result[relative] = entry
            if type == S_IFDIR {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                pending += names.map { relative.isEmpty ? $0 : relative + "/" + $0 }
            }
        }
        return result
    }

    /// A readable difference between two walks.
    static func difference(_ before: [String: ReliabilityTreeEntry], _ after: [String: ReliabilityTreeEntry]) -> String
    {
        var lines: [String] = []
        for path in Set(before.keys).union(after.keys).sorted() where before[path] != after[path] {
            lines.append(
                "\(path.isEmpty ? "." : path): \(before[path]?.description ?? "absent") → \(after[path]?.description ?? "absent")"
            )
        }
        return lines.joined(separator: "; ")
    }
}
