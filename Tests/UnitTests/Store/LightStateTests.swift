import AppGroupStore
import Foundation
import Testing
import TestSupport

@Suite("Journaled store: identifier-only states")
struct LightStateTests {
    @Test("a store that keeps only identifiers in memory still compacts every value to disk")
    func compactionKeepsValues() throws {
        let group = TemporaryAppGroup()
        defer { group.cleanUp() }
        let light = JournaledStore<NoMetadata>(directory: group.path + "/store", retainsContacts: false)
        try light.reset()
        var state = try light.load()
        var record = ContactRecord(identifier: "a")
        record.givenName = "Ada"
        record.note = "kept"
        #expect(try light.append(upsert: [record], to: &state))
        #expect(state.contains("a"))
        #expect(state.records["a"] == nil, "the in-memory state holds the identifier only")
        try light.compact()
        let full = JournaledStore<NoMetadata>(directory: group.path + "/store")
        #expect(try full.load().records["a"] == record)
        #expect(try light.load().contains("a"))
    }
}
