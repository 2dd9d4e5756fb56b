// The vdir example's store: a directory of vCards, one `.vcf` per contact (the format vdirsyncer
// and khard use), plus the change tracking the provider needs, all in the App Group:
//
//   <App Group>/vdir/<name>.vcf                      one contact; <name> is its identifier, escaped
//   <App Group>/vdir-tracking/generation             the current generation (a UUID, one line)
//   <App Group>/vdir-tracking/changes-<generation>   one line per edit: "P <name>" (put) or "D <name>" (delete)
//
// Writers (the adapters, or an app) write the .vcf first, then append the line; a reset starts a
// new generation, which expires every older anchor. The Python adapter writes the same layout.

import AppGroupStore
import Foundation

/// Paths and names of the vdir layout.
public struct VdirLayout: Sendable {
    /// The App Group the store lives in.
    public let root: String

    /// The layout inside `appGroup`.
    public init(appGroup: AppGroup) { root = appGroup.path }

    /// The directory of `.vcf` files.
    public var cards: String { root + "/vdir" }
    /// The change-tracking directory.
    public var tracking: String { root + "/vdir-tracking" }
    /// The file naming the current generation.
    public var generationFile: String { tracking + "/generation" }

    /// The change log of `generation`.
    public func changeLog(_ generation: String) -> String { tracking + "/changes-" + generation }

    /// The `.vcf` path of a file name (an escaped identifier).
    public func card(name: String) -> String { cards + "/" + name + ".vcf" }

    /// Characters kept as they are in file names (the rest is %XX-escaped, as Python's `quote(safe="-_.~")`).
    private static let unreserved = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~".utf8)

    /// The file name (without `.vcf`) of an identifier.
    public static func name(of identifier: String) -> String {
        var name = ""
        for byte in identifier.utf8 {
            if unreserved.contains(byte) {
                name.append(Character(UnicodeScalar(byte)))
            } else {
                name += String(format: "%%%02X", byte)
            }
        }
        return name
    }

    /// The identifier of a file name.
    public static func identifier(of name: String) -> String {
        name.removingPercentEncoding ?? name
    }
}

/// One line of a change log.
public struct VdirChange: Equatable, Sendable {
    /// True for a put (added or updated), false for a delete.
    public var isPut: Bool
    /// The file name (escaped identifier).
    public var name: String
}

/// Reading the store: what the provider does.
public struct VdirReader: Sendable {
    public let layout: VdirLayout

    public init(layout: VdirLayout) { self.layout = layout }

    /// The current generation; nil before the first write.
    public func generation() -> String? {
        guard let data = FileManager.default.contents(atPath: layout.generationFile) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// The complete lines of `generation`'s change log (a line still being written is not read).
    public func changes(_ generation: String) -> [VdirChange] {
        guard let data = FileManager.default.contents(atPath: layout.changeLog(generation)) else { return [] }
        var result: [VdirChange] = []
        var lineStart = data.startIndex
        for index in data.indices where data[index] == 0x0A {
            let line = String(decoding: data[lineStart..<index], as: UTF8.self)
            lineStart = index + 1
            guard line.count > 2 else { continue }
            let kind = line.prefix(2)
            if kind == "P " || kind == "D " {
                result.append(VdirChange(isPut: kind == "P ", name: String(line.dropFirst(2))))
            }
        }
        return result
    }

    /// The names alive after the first `count` changes, sorted.
    public func alive(after changes: ArraySlice<VdirChange>) -> [String] {
        var names = Set<String>()
        for change in changes {
            if change.isPut { names.insert(change.name) } else { names.remove(change.name) }
        }
        return names.sorted()
    }

    /// The contact in a file now; nil when it no longer exists.
    public func contact(name: String) throws -> ContactRecord? {
        guard let data = FileManager.default.contents(atPath: layout.card(name: name)) else { return nil }
        let decoded = VCardFile.decode(data)
        guard var record = decoded.first else {
            throw VdirError("\(layout.card(name: name)): no vCard could be read")
        }
        record.identifier = VdirLayout.identifier(of: name)
        return record
    }

    /// Every contact in the directory, whatever the log says.
    public func allContacts() throws -> [ContactRecord] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: layout.cards)) ?? []
        return try names.filter { $0.hasSuffix(".vcf") }.sorted().compactMap {
            try contact(name: String($0.dropLast(4)))
        }
    }
}

/// The store could not be read or written; the message names the file.
public struct VdirError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
