import AppGroupStore
import Foundation
import TestSupport
import Testing

/// Issue 10, item 5: `delete ID...` is one atomic journal write.
@Suite("AppDatabase.delete: one journal entry for every identifier")
struct AtomicDeleteTests {
    @Test("Deleting 3,000 identifiers appends exactly one journal line (one write, one fdatasync)")
    func bulkDeleteIsOneEntry() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            let doomed = (0..<3000).map { String(format: "del-%05d", $0) }
            try database.replaceAll(with: (doomed + ["keep-1"]).map { ContactRecord(identifier: $0) })
            try database.add(StoreFixtures.contact("keep-2"))
            let linesBefore = try StoreFixtures.lineCount(database.store.journalPath)
            let headBefore = try database.store.load().headSeq

            try database.delete(doomed.reversed())

            #expect(try StoreFixtures.lineCount(database.store.journalPath) == linesBefore + 1)
            let state = try database.store.load()
            #expect(state.headSeq == headBefore + 1)
            #expect(state.contacts.map(\.identifier) == ["keep-1", "keep-2"])
            let window = try #require(
                try StoreFixtures.entries(database.store, after: headBefore, in: state.generation))
            #expect(window.entries.count == 1)
            #expect(Set(window.entries[0].delete ?? []) == Set(doomed))
        }
    }

    @Test("A delete cut short by a kill (a torn line) deletes none; an unknown id deletes none")
    func tornDeleteDeletesNone() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            let identifiers = (0..<20).map { "c\($0)" }
            for identifier in identifiers { try database.add(StoreFixtures.contact(identifier)) }
            let intact = try StoreFixtures.bytes(database.store.journalPath)

            #expect(throws: StoreError.notFound(identifier: "nope")) { try database.delete(identifiers + ["nope"]) }
            #expect(try StoreFixtures.bytes(database.store.journalPath) == intact)

            try database.delete(identifiers)
            let deleted = try StoreFixtures.bytes(database.store.journalPath)
            // A kill at any byte of the delete's write leaves a torn last line: every contact is still there.
            for cut in stride(from: intact.count + 1, to: deleted.count, by: max(1, (deleted.count - intact.count) / 7))
            {
                try SecureFile.replace(database.store.journalPath, with: deleted.prefix(cut), durable: false)
                #expect(try database.all().map(\.identifier) == identifiers, "cut at byte \(cut)")
            }
        }
    }

    @Test("Repeated identifiers in one delete are deleted once")
    func repeatedIdentifiers() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.contact("a"))
            try database.add(StoreFixtures.contact("b"))
            try database.delete(["a", "a"])
            #expect(try database.all().map(\.identifier) == ["b"])
            #expect(try StoreFixtures.lineCount(database.store.journalPath) == 4)
        }
    }
}
