import Foundation
import Testing

/// This process's memory mappings as /proc/self/smaps lists them, for tests that measure one (how
/// much of it is resident, how much sits on huge pages).
enum ProcessMappings {
    /// The value, in bytes, of the `field` line (`Rss`, `AnonHugePages`, …) of the first mapping
    /// whose header line (`start-end perms offset dev inode [path]`) `matches`; nil when none does.
    static func bytes(of field: String, inMappingWhere matches: (Substring) -> Bool) throws -> Int? {
        // Read to the end: a /proc file says its size is 0, and a one-shot read of it stops short.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                inMapping = matches(line)
            } else if inMapping, line.hasPrefix(field + ":") {
                return (fields.compactMap { Int($0) }.first ?? 0) * 1024
            }
        }
        return nil
    }

    /// ``bytes(of:inMappingWhere:)`` of the mapping of the file named `name`.
    static func bytes(of field: String, ofFileNamed name: String) throws -> Int? {
        try bytes(of: field) { $0.hasSuffix("/" + name) }
    }

    /// ``bytes(of:inMappingWhere:)`` of the mapping that holds `address`.
    static func bytes(of field: String, ofMappingHolding address: Int) throws -> Int? {
        try bytes(of: field) { header in
            let bounds = header.prefix { $0 != " " }.split(separator: "-").compactMap { Int($0, radix: 16) }
            return bounds.count == 2 && bounds[0] <= address && address < bounds[1]
        }
    }
}
