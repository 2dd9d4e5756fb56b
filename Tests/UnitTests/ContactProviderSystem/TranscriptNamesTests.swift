import AppGroupStore
import ContactProviderSystem
import ContactProviderTesting
import Foundation
import TestSupport
import Testing

/// `signal --trace` and step mode name each item beside its identifier, as the system would show it.
@Suite("System engine: the transcript names each item")
struct TranscriptNamesTests {
    private func record(_ identifier: String, given: String = "", family: String = "", organization: String = "")
        -> ContactRecord
    {
        var record = ContactRecord(identifier: identifier)
        record.givenName = given
        record.familyName = family
        record.organizationName = organization
        return record
    }

    @Test("didEnumerate and didUpdate show 'id \"Given Family\"' (else the organization), five at most; didDelete ids")
    func namesBesideIdentifiers() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group) { $0.pageSize = 10 }
            let content = [
                record("ada", given: "Ada", family: "Lovelace"), record("acme", organization: "Acme \"Inc\""),
                record("blank"), record("c4", given: "Four"), record("c5", given: "Five"), record("c6", given: "Six"),
            ]
            let contentTranscript = Transcript()
            let first = await engine.sync(
                driver: ScriptedDriver(content: pagingContent(content)), transcript: contentTranscript)
            #expect(first.error == nil)
            #expect(
                contentTranscript.all.contains(
                    #"  didEnumerate(6 items: ada "Ada Lovelace", acme "Acme \"Inc\"", blank, c4 "Four", c5 "Five", … (1 more))"#
                ), "\(contentTranscript.all)")

            let changesTranscript = Transcript()
            let next = SyncPosition(generationMarker: marker, offset: 1)
            let renamed = record("ada", given: "Augusta Ada", family: "King")
            let driver = ScriptedDriver(
                content: pagingContent([]),
                changes: { _, observer in
                    observer.didUpdate([renamed])
                    observer.didDelete(["acme"])
                    observer.didFinishBatch(upTo: next, moreComing: false)
                })
            let second = await engine.sync(driver: driver, transcript: changesTranscript)
            #expect(second.error == nil)
            #expect(changesTranscript.all.contains(#"  didUpdate(1 item: ada "Augusta Ada King")"#))
            #expect(changesTranscript.all.contains("  didDelete(1 item: acme)"))
        }
    }
}
