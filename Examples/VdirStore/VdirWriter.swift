import AppGroupStore
import Foundation
import Glibc

/// Editing the store as an app would: write the card, then record the change.
public struct VdirWriter: Sendable {
    public let layout: VdirLayout

    public init(layout: VdirLayout) { self.layout = layout }

    /// Empties the directory and starts a new generation (every older anchor expires).
    public func reset() throws {
        try FileManager.default.createDirectory(atPath: layout.cards, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: layout.tracking, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: layout.cards) where name.hasSuffix(".vcf") {
            try FileManager.default.removeItem(atPath: layout.cards + "/" + name)
        }
        let old = VdirReader(layout: layout).generation()
        let generation = UUID().uuidString
        try writeAtomically(Data((generation + "\n").utf8), to: layout.generationFile)
        if let old { try? FileManager.default.removeItem(atPath: layout.changeLog(old)) }
    }

    /// Adds or replaces a contact.
    public func put(_ record: ContactRecord) throws {
        let generation = try currentGeneration()
        let name = VdirLayout.name(of: record.identifier)
        try writeAtomically(VCardFile.encode(record), to: layout.card(name: name))
        try append("P " + name, generation: generation)
    }

    /// Deletes a contact; an unknown identifier is an error.
    public func delete(identifier: String) throws {
        let generation = try currentGeneration()
        let name = VdirLayout.name(of: identifier)
        guard unlink(layout.card(name: name)) == 0 else {
            throw VdirError("\(layout.card(name: name)): cannot delete (\(String(cString: strerror(errno))))")
        }
        try append("D " + name, generation: generation)
    }

    private func currentGeneration() throws -> String {
        if let generation = VdirReader(layout: layout).generation() { return generation }
        try reset()
        guard let generation = VdirReader(layout: layout).generation() else {
            throw VdirError("\(layout.generationFile): not written")
        }
        return generation
    }

    /// One `write(2)` with O_APPEND, so a reader sees whole lines or none.
    private func append(_ line: String, generation: String) throws {
        let path = layout.changeLog(generation)
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VdirError("\(path): cannot open (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        let bytes = Array((line + "\n").utf8)
        guard write(fd, bytes, bytes.count) == bytes.count, fsync(fd) == 0 else {
            throw VdirError("\(path): cannot append (\(String(cString: strerror(errno))))")
        }
    }

    private func writeAtomically(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw VdirError("\(path): cannot write (\(error))")
        }
    }
}
