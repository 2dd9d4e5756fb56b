import AppGroupStore
import ContactProviderSystem
import Foundation
import Glibc
import TestSupport
import Testing

@testable import ContactsHostKit

@Suite("signal's progress says \"N of M\": what N and M count, and when M is unknown")
struct SyncProgressCountsTests {
    private func record(_ identifier: String) -> ContactRecord {
        var record = ContactRecord(identifier: identifier)
        record.givenName = identifier.uppercased()
        return record
    }

    @Test("The lines: content in contacts and pages, changes in changes and batches, an unknown total said so")
    func lines() {
        #expect(
            SyncProgressCounts.text(phase: .content, delivered: 6, total: 12, commits: 3)
                == "content enumeration: 6 of 12 contacts in the system store, 3 pages so far")
        #expect(
            SyncProgressCounts.text(phase: .changes, delivered: 1, total: 1, commits: 1)
                == "change enumeration: 1 of 1 change, 1 batch so far")
        #expect(
            SyncProgressCounts.text(phase: .changes, delivered: 40, total: nil, commits: 2)
                == "change enumeration: 40 changes (total unknown), 2 batches so far")
    }

    @Test("A total is dropped once the delivered count passes it (the provider reads another store)")
    func totalBelowDelivered() {
        #expect(SyncProgressCounts.total(10, delivered: 4) == 10)
        #expect(SyncProgressCounts.total(10, delivered: 10) == 10)
        #expect(SyncProgressCounts.total(0, delivered: 3) == nil)
        #expect(SyncProgressCounts.total(nil, delivered: 0) == nil)
    }

    /// A `domain.json` in `group` naming `backend` as the app's store (nil: the app database).
    private func configuration(_ group: TemporaryAppGroup, backend: String? = nil) throws -> String {
        var configuration = DomainConfiguration()
        configuration.backend = backend
        let path = group.path + "/domain.json"
        try configuration.save(to: path)
        return path
    }

    @Test("M of a content enumeration is the contact count of the app's store: the app database by default")
    func contentTotal() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            for index in 0..<5 { _ = try database.add(record("c\(index)")) }
            try database.delete(["c0"])
            let path = try configuration(group)
            #expect(SyncProgressCounts.appContactCount(appGroup: group.appGroup, configuration: path) == 4)
        }
    }

    @Test("M of a content enumeration over a seed-json store is that file's count, not the app database's")
    func contentTotalOfAnotherStore() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            for index in 0..<5 { _ = try database.add(record("c\(index)")) }
            let file = group.path + "/ContactItems.json"
            try Data(
                #"[{"identifier":"a","firstName":"A","lastName":""},{"identifier":"b","firstName":"B","lastName":""}]"#
                    .utf8
            ).write(to: URL(fileURLWithPath: file))
            let path = try configuration(group, backend: "seed-json:\(file)")
            #expect(SyncProgressCounts.appContactCount(appGroup: group.appGroup, configuration: path) == 2)
            // Its anchors are not the app database's markers: pending changes are unknown.
            let state = try database.store.load()
            let marker = SyncMarker(generation: state.generation, seq: 0).data
            #expect(
                SyncProgressCounts.pendingAppChanges(
                    appGroup: group.appGroup, configuration: path,
                    after: SyncPosition(generationMarker: marker, offset: 0)) == nil)
            // An unreadable domain.json: unknown, not the app database's count.
            let broken = group.path + "/broken.json"
            try Data("{".utf8).write(to: URL(fileURLWithPath: broken))
            #expect(SyncProgressCounts.appContactCount(appGroup: group.appGroup, configuration: broken) == nil)
        }
    }

    @Test(
        "Pending changes after an app-database anchor count every change, a multi-id deletion as many; other anchors are unknown"
    )
    func pendingChanges() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            for index in 0..<5 { _ = try database.add(record("p\(index)")) }
            try database.delete(["p0", "p1"])  // one journal entry, two changes
            let state = try database.store.load()
            let marker = SyncMarker(generation: state.generation, seq: 0).data
            let path = try configuration(group)
            // After the second add: three adds and two deletions remain.
            #expect(
                SyncProgressCounts.pendingAppChanges(
                    appGroup: group.appGroup, configuration: path,
                    after: SyncPosition(generationMarker: marker, offset: 2)) == 5)
            // Up to date: nothing pending.
            #expect(
                SyncProgressCounts.pendingAppChanges(
                    appGroup: group.appGroup, configuration: path,
                    after: SyncPosition(generationMarker: marker, offset: state.headSeq))
                    == 0)
            // Half of the deletion delivered (`within` 1).
            let within = SyncMarker(generation: state.generation, seq: 0, within: 1).data
            #expect(
                SyncProgressCounts.pendingAppChanges(
                    appGroup: group.appGroup, configuration: path,
                    after: SyncPosition(generationMarker: within, offset: state.headSeq - 1))
                    == 1)
            // A provider's own anchor, or a generation the database never had: unknown.
            #expect(
                SyncProgressCounts.pendingAppChanges(
                    appGroup: group.appGroup, configuration: path,
                    after: SyncPosition(generationMarker: Data("v7".utf8), offset: 0)) == nil)
            let stranger = SyncMarker(generation: "no-such-generation", seq: 0).data
            #expect(
                SyncProgressCounts.pendingAppChanges(
                    appGroup: group.appGroup, configuration: path,
                    after: SyncPosition(generationMarker: stranger, offset: 0)) == nil)
        }
    }

    @Test("N of a change enumeration counts the updates and deletions committed after the journal's end at the signal")
    func deliveredChanges() throws {
        try withTemporaryAppGroup { group in
            let directory = group.path + "/store"
            let store = SystemStore(directory: directory)
            try store.reset(meta: .initial)
            _ = try store.append(upsert: [record("before")], meta: .initial)
            let journal = JournalFiles.journal(in: directory)
            var info = stat()
            #expect(stat(journal, &info) == 0)
            var delivered = DeliveredChanges(journal: journal, inode: UInt64(info.st_ino), size: Int(info.st_size))
            delivered.refresh()
            #expect(delivered.count == 0)
            _ = try store.append(
                upsert: [record("a"), record("b")],
                delete: ["before"], meta: SyncState(phase: .changes, anchor: .initial))
            delivered.refresh()
            #expect(delivered.count == 3)
            // The sync's enumeration is its first commit's phase.
            #expect(delivered.firstPhase == .changes)
            _ = try store.append(delete: ["a"], meta: .initial)
            delivered.refresh()
            delivered.refresh()  // nothing new: counted once
            #expect(delivered.count == 4)
            #expect(!delivered.journalReplaced)
            // A reset replaces the journal: counting goes on from the new one's start.
            try store.reset(meta: .initial)
            _ = try store.append(upsert: [record("c")], meta: .initial)
            delivered.refresh()
            #expect(delivered.count == 5)
            #expect(delivered.journalReplaced)
            #expect(delivered.entries == 3)
        }
    }
}
