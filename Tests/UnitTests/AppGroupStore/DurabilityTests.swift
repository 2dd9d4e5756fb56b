import AppGroupStore
import Foundation
import Testing

/// Issue 43, item 9: only a directory marked as thrown away (the kit's temporary App Group) skips
/// durability barriers; every other path, including one that merely shares a prefix, stays durable.
@Suite("Durability: which paths skip their barriers")
struct DurabilityTests {
    @Test("a marked directory covers itself and what is under it, not a sibling sharing its prefix")
    func containment() {
        let root = "/tmp/cps-durability-\(UUID().uuidString)"
        #expect(!Durability.isEphemeral(root + "/store/journal.jsonl"))
        Durability.markEphemeral(root + "/")
        defer { Durability.unmarkEphemeral(root) }
        #expect(Durability.isEphemeral(root))
        #expect(Durability.isEphemeral(root + "/store/journal.jsonl"))
        #expect(Durability.ephemeralRoot(containing: root + "/a") == root)
        #expect(!Durability.isEphemeral(root + "-other/journal.jsonl"))
        #expect(!Durability.isEphemeral("/tmp"))
        Durability.unmarkEphemeral(root)
        #expect(!Durability.isEphemeral(root + "/store/journal.jsonl"))
    }

    @Test("files in a marked directory are still written and replaced atomically")
    func writesStillLand() throws {
        let root = NSTemporaryDirectory() + "/cps-durability-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
        Durability.markEphemeral(root)
        defer {
            Durability.unmarkEphemeral(root)
            try? FileManager.default.removeItem(atPath: root)
        }
        try SecureFile.replace(root + "/file", with: Data("one".utf8))
        try SecureFile.replace(root + "/file", with: Data("two".utf8))
        #expect(FileManager.default.contents(atPath: root + "/file") == Data("two".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["file"], "no temporary file left")
    }
}
