import AppGroupStore
import Foundation
import TestSupport
import Testing

@Suite("ProviderDataSource: content pages, change batches and sync markers")
struct ProviderDataSourceTests {
    private struct PageResult {
        var identifiers: [String]
        var marker: SyncMarker
        var nextOffset: Int
        var isLast: Bool
    }

    private func page(_ source: ProviderDataSource, marker: Data?, offset: Int, limit: Int) throws -> PageResult? {
        switch try source.contentPage(marker: marker, offset: offset, limit: limit) {
        case .page(let records, let marker, let nextOffset, let isLast):
            return PageResult(
                identifiers: records.map(\.identifier), marker: marker, nextOffset: nextOffset, isLast: isLast)
        case .expired:
            return nil
        }
    }

    private struct Batch {
        var updated: [ContactRecord]
        var deleted: [String]
        var marker: SyncMarker
        var offset: Int
        var moreComing: Bool
    }

    private func changes(_ source: ProviderDataSource, marker: SyncMarker, offset: Int, limit: Int = 100) throws
        -> Batch?
    {
        switch try source.changes(marker: marker.data, offset: offset, limit: limit) {
        case .batch(let updated, let deleted, let marker, let offset, let moreComing):
            return Batch(updated: updated, deleted: deleted, marker: marker, offset: offset, moreComing: moreComing)
        case .expired:
            return nil
        }
    }

    private func filled(_ group: TemporaryAppGroup, count: Int) throws -> AppDatabase {
        let database = AppDatabase(appGroup: group.appGroup)
        try database.upsert((1...count).map { StoreFixtures.contact(String(format: "c%02d", $0)) })
        return database
    }

    @Test("Markers round-trip through their wire form; foreign data is refused")
    func markerWireForm() throws {
        let marker = SyncMarker(generation: "6F9A-B", seq: 42)
        #expect(String(decoding: marker.data, as: UTF8.self) == "cps1:6F9A-B:42")
        #expect(SyncMarker(data: marker.data) == marker)
        #expect(SyncMarker(data: SyncMarker(generation: "", seq: 0).data) == SyncMarker(generation: "", seq: 0))
        for foreign in ["", "cps2:g:1", "cps1:g", "cps1:g:-1", "cps1:g:x", "cps1:a:b:1", "random"] {
            #expect(SyncMarker(data: Data(foreign.utf8)) == nil, "\(foreign)")
        }
        #expect(SyncMarker(data: Data([0xFF, 0xFE])) == nil)
    }

    @Test("Pages are complete, non-overlapping and stable for the same (marker, offset)")
    func pagesCompleteAndStable() throws {
        try withTemporaryAppGroup { group in
            let database = try filled(group, count: 10)
            let source = ProviderDataSource(appGroup: group.appGroup)

            let first = try #require(try page(source, marker: nil, offset: 0, limit: 4))
            let state = try database.store.load()
            #expect(first.marker == SyncMarker(generation: state.generation, seq: state.headSeq))
            var seen = first.identifiers
            var offset = first.nextOffset
            var pages = [first]
            while !pages.last!.isLast {
                let next = try #require(try page(source, marker: first.marker.data, offset: offset, limit: 4))
                #expect(next.marker == first.marker)
                seen += next.identifiers
                offset = next.nextOffset
                pages.append(next)
            }
            #expect(pages.map(\.identifiers.count) == [4, 4, 2])
            #expect(seen == (1...10).map { String(format: "c%02d", $0) })
            #expect(Set(seen).count == seen.count)

            // Asking again for the same (marker, offset) gives the same page.
            let again = try #require(try page(source, marker: first.marker.data, offset: 4, limit: 4))
            #expect(again.identifiers == pages[1].identifiers)
            #expect(again.nextOffset == pages[1].nextOffset)
        }
    }

    @Test("Deleted contacts leave holes, so later pages keep their positions")
    func holesForDeletions() throws {
        try withTemporaryAppGroup { group in
            let database = try filled(group, count: 10)
            let source = ProviderDataSource(appGroup: group.appGroup)
            let first = try #require(try page(source, marker: nil, offset: 0, limit: 4))
            let second = try #require(try page(source, marker: first.marker.data, offset: 4, limit: 4))

            try database.delete(["c02", "c10"])
            try database.add(StoreFixtures.contact("c11"))

            // A page holds up to `limit` live contacts: the hole at c02 is skipped, not counted.
            let firstAgain = try #require(try page(source, marker: first.marker.data, offset: 0, limit: 4))
            #expect(firstAgain.identifiers == ["c01", "c03", "c04", "c05"])
            #expect(firstAgain.nextOffset == 5)
            // Positions did not move: the page at offset 4 is the one handed out before the deletion.
            let secondAgain = try #require(try page(source, marker: first.marker.data, offset: 4, limit: 4))
            #expect(secondAgain.identifiers == second.identifiers)
            #expect(secondAgain.nextOffset == 8)
            let third = try #require(try page(source, marker: first.marker.data, offset: 8, limit: 4))
            #expect(third.identifiers == ["c09", "c11"])
            #expect(third.isLast)
        }
    }

    @Test("The last page is reported even when only holes follow it")
    func trailingHoles() throws {
        try withTemporaryAppGroup { group in
            let database = try filled(group, count: 6)
            try database.delete(["c05", "c06"])
            let source = ProviderDataSource(appGroup: group.appGroup)
            let first = try #require(try page(source, marker: nil, offset: 0, limit: 4))
            #expect(first.identifiers == ["c01", "c02", "c03", "c04"])
            #expect(first.isLast)
        }
    }

    @Test("An empty database gives one empty last page")
    func emptyDatabasePage() throws {
        try withTemporaryAppGroup { group in
            let source = ProviderDataSource(appGroup: group.appGroup)
            let only = try #require(try page(source, marker: nil, offset: 0, limit: 10))
            #expect(only.identifiers.isEmpty)
            #expect(only.isLast)
            // Nothing changed since: no changes, not expired.
            let batch = try #require(try changes(source, marker: only.marker, offset: 0))
            #expect(batch.updated.isEmpty && batch.deleted.isEmpty && !batch.moreComing)
        }
    }

    @Test("A page for a foreign or reset generation is expired")
    func pageExpired() throws {
        try withTemporaryAppGroup { group in
            let database = try filled(group, count: 3)
            let source = ProviderDataSource(appGroup: group.appGroup)
            let first = try #require(try page(source, marker: nil, offset: 0, limit: 2))
            #expect(try page(source, marker: Data("nonsense".utf8), offset: 2, limit: 2) == nil)
            #expect(try page(source, marker: SyncMarker(generation: "other", seq: 0).data, offset: 2, limit: 2) == nil)
            try database.reset()
            #expect(try page(source, marker: first.marker.data, offset: 2, limit: 2) == nil)
        }
    }

    @Test("Changes after the marker are delivered, with the next anchor")
    func changesAfterMarker() throws {
        try withTemporaryAppGroup { group in
            let database = try filled(group, count: 3)
            let source = ProviderDataSource(appGroup: group.appGroup)
            let marker = try #require(try page(source, marker: nil, offset: 0, limit: 10)).marker

            try database.update("c01") { $0.givenName = "Changed" }
            try database.delete(["c02"])
            try database.add(StoreFixtures.contact("c04"))
            let batch = try #require(try changes(source, marker: marker, offset: 0))
            #expect(batch.updated.map(\.identifier) == ["c01", "c04"])
            #expect(batch.updated.first?.givenName == "Changed")
            #expect(batch.deleted == ["c02"])
            #expect(batch.marker == marker)
            #expect(batch.offset == 3)
            #expect(!batch.moreComing)

            let none = try #require(try changes(source, marker: batch.marker, offset: batch.offset))
            #expect(none.updated.isEmpty && none.deleted.isEmpty)
            #expect(none.offset == 3)
        }
    }

    @Test("An update followed by a delete of the same contact in one batch is a deletion")
    func updateThenDeleteCollapses() throws {
        try withTemporaryAppGroup { group in
            let database = try filled(group, count: 2)
            let source = ProviderDataSource(appGroup: group.appGroup)
            let marker = try #require(try page(source, marker: nil, offset: 0, limit: 10)).marker
            try database.update("c01") { $0.givenName = "Brief" }
            try database.delete(["c01"])
            let batch = try #require(try changes(source, marker: marker, offset: 0))
            #expect(batch.updated.isEmpty)
            #expect(batch.deleted == ["c01"])
        }
    }

    @Test("A delete followed by a re-add of the same contact in one batch is an update")
    func deleteThenAddCollapses() throws {
        try withTemporaryAppGroup { group in
            let database = try filled(group, count: 2)
            let source = ProviderDataSource(appGroup: group.appGroup)
            let marker = try #require(try page(source, marker: nil, offset: 0, limit: 10)).marker
            try database.delete(["c02"])
            try database.add(StoreFixtures.contact("c02", given: "Reborn"))
            let batch = try #require(try changes(source, marker: marker, offset: 0))
            #expect(batch.deleted.isEmpty)
            #expect(batch.updated.map(\.identifier) == ["c02"])
            #expect(batch.updated.first?.givenName == "Reborn")
        }
    }

    @Test("moreComing is set while entries remain, and the offsets walk to the head")
    func moreComing() throws {
        try withTemporaryAppGroup { group in
            let database = try filled(group, count: 1)
            let source = ProviderDataSource(appGroup: group.appGroup)
            let marker = try #require(try page(source, marker: nil, offset: 0, limit: 10)).marker
            for index in 1...5 { try database.add(StoreFixtures.contact("n\(index)")) }

            var offset = 0
            var delivered: [String] = []
            var flags: [Bool] = []
            for _ in 0..<3 {
                let batch = try #require(try changes(source, marker: marker, offset: offset, limit: 2))
                delivered += batch.updated.map(\.identifier)
                flags.append(batch.moreComing)
                offset = batch.offset
            }
            #expect(delivered == ["n1", "n2", "n3", "n4", "n5"])
            #expect(flags == [true, true, false])
            #expect(offset == 5)
        }
    }

    @Test("A foreign, unknown-generation, reset or future anchor is expired")
    func changesExpired() throws {
        try withTemporaryAppGroup { group in
            let database = try filled(group, count: 2)
            let source = ProviderDataSource(appGroup: group.appGroup)
            let marker = try #require(try page(source, marker: nil, offset: 0, limit: 10)).marker

            if case .expired = try source.changes(marker: Data("not a marker".utf8), offset: 0, limit: 10) {
            } else {
                Issue.record("a foreign marker must be expired")
            }
            #expect(try changes(source, marker: SyncMarker(generation: "foreign", seq: marker.seq), offset: 0) == nil)
            #expect(try changes(source, marker: marker, offset: 1) == nil)  // beyond the head
            #expect(try changes(source, marker: marker, offset: -1) == nil)
            try database.reset()
            #expect(try changes(source, marker: marker, offset: 0) == nil)
        }
    }

    @Test("After compaction an up-to-date anchor moves to the new generation")
    func compactionMovesAnchor() throws {
        try withTemporaryAppGroup { group in
            let database = try filled(group, count: 2)
            let source = ProviderDataSource(appGroup: group.appGroup)
            let marker = try #require(try page(source, marker: nil, offset: 0, limit: 10)).marker
            try database.store.compact()
            try database.add(StoreFixtures.contact("late"))
            let batch = try #require(try changes(source, marker: marker, offset: 0))
            #expect(batch.updated.map(\.identifier) == ["late"])
            let generation = try database.store.load().generation
            #expect(batch.marker == SyncMarker(generation: generation, seq: marker.seq + 1))
            #expect(batch.offset == 0)
            let next = try #require(try changes(source, marker: batch.marker, offset: batch.offset))
            #expect(next.updated.isEmpty)
        }
    }

    @Test("An anchor taken before the database existed stays valid until it is created")
    func anchorBeforeCreation() throws {
        try withTemporaryAppGroup { group in
            let source = ProviderDataSource(appGroup: group.appGroup)
            let marker = try #require(try page(source, marker: nil, offset: 0, limit: 10)).marker
            #expect(marker.generation == "")
            #expect(try changes(source, marker: marker, offset: 0) != nil)
            try AppDatabase(appGroup: group.appGroup).add(StoreFixtures.contact("first"))
            #expect(try changes(source, marker: marker, offset: 0) == nil)
        }
    }

    @Test("StoreState.page returns live contacts from an offset and says when the end is reached")
    func statePage() throws {
        try withTemporaryAppGroup { group in
            let database = try filled(group, count: 5)
            try database.delete(["c03"])
            let state = try database.store.load()
            #expect(state.order == ["c01", "c02", "c03", "c04", "c05"])
            let head = state.page(from: 0, limit: 3)
            #expect(head.contacts.map(\.identifier) == ["c01", "c02", "c04"])
            #expect(head.nextOffset == 4)
            #expect(!head.isLast)
            let tail = state.page(from: head.nextOffset, limit: 3)
            #expect(tail.contacts.map(\.identifier) == ["c05"])
            #expect(tail.isLast)
            let past = state.page(from: 100, limit: 3)
            #expect(past.contacts.isEmpty && past.isLast)
            #expect(state.page(from: -5, limit: 1).contacts.map(\.identifier) == ["c01"])
        }
    }

    @Test("One atomic delete of many ids is split into batches of at most the limit, nothing lost or repeated")
    func multiIdentifierDeleteIsSplit() throws {
        try withTemporaryAppGroup { group in
            let database = try filled(group, count: 9)
            let source = ProviderDataSource(appGroup: group.appGroup)
            var marker = try #require(try page(source, marker: nil, offset: 0, limit: 100)).marker
            var offset = 0
            let doomed = (1...7).map { String(format: "c%02d", $0) }
            try database.delete(doomed)
            try database.add(StoreFixtures.contact("late"))
            var deleted: [String] = []
            var updated: [String] = []
            var batches = 0
            while true {
                let batch = try #require(try changes(source, marker: marker, offset: offset, limit: 3))
                #expect(batch.deleted.count + batch.updated.count <= 3)
                #expect(
                    batch.marker != marker || batch.offset != offset || !batch.moreComing, "the anchor must advance")
                deleted += batch.deleted
                updated += batch.updated.map(\.identifier)
                marker = batch.marker
                offset = batch.offset
                batches += 1
                if !batch.moreComing || batches > 10 { break }
            }
            #expect(deleted == doomed)
            #expect(updated == ["late"])
            #expect(batches == 3)
            // The anchor of a partly delivered entry round-trips through its wire form.
            let partial = SyncMarker(generation: "G", seq: 4, within: 2)
            #expect(String(decoding: partial.data, as: UTF8.self) == "cps1:G:4:2")
            #expect(SyncMarker(data: partial.data) == partial)
            #expect(SyncMarker(data: Data("cps1:G:4:0".utf8)) == nil)
            // At the head, nothing more.
            let end = try #require(try changes(source, marker: marker, offset: offset, limit: 3))
            #expect(end.deleted.isEmpty && end.updated.isEmpty && !end.moreComing)
        }
    }
}
