import Foundation
import TestSupport
import Testing

/// Issue 26, CardDAV beyond one server: the `carddav-provider` example against servers that behave
/// differently from Radicale — tokens refused in every way servers refuse them, a server without
/// sync-collection (ETag listings instead), and Xandikos edited by a real client (vdirsyncer).
///
/// The refusals come from `Scripts/refusing_carddav_proxy.py` in front of a real server; every
/// other answer is the real server's.
@Suite("End to end: the CardDAV provider against refused tokens, no sync-collection, and Xandikos")
struct CardDAVServerBehaviourTests {
    static let ada = CardDAVSyncTests.ada
    static let bob = CardDAVSyncTests.bob
    static let cleo = CardDAVSyncTests.cleo

    @Test(
        "a sync token refused with 410, a bare 403, 403 with DAV:valid-sync-token or 412 re-enumerates, and later syncs are changes again",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)),
        arguments: ["410", "403", "403-token", "412"])
    func refusedToken(kind: String) async throws {
        try await withCardDAVFixture(proxy: .refusesTokensOnRequest) { fixture in
            let proxy = try #require(fixture.proxy)
            for card in [Self.ada, Self.bob] { try await fixture.book.put(card) }
            try fixture.signal()
            try expectSystem(fixture, holds: [Self.ada, Self.bob])

            try proxy.refuseNextToken(kind)
            try await fixture.book.put(Self.cleo)
            try await fixture.book.delete(Self.bob.resource)
            let refused = try fixture.signal()
            #expect(!proxy.refusalPending, "the proxy never saw a token-bearing sync-collection")
            #expect(refused["restarted"] as? Bool == true, "a refused token is an expired anchor: \(refused)")
            #expect(refused["error"] == nil, "\(refused)")
            try expectSystem(fixture, holds: [Self.ada, Self.cleo])

            var ada = Self.ada
            ada.note = "edited after the refusal"
            try await fixture.book.put(ada)
            let next = try fixture.signal()
            #expect(next["enumeration"] as? String == "changes")
            #expect(next["updated"] as? Int == 1)
            try expectSystem(fixture, holds: [ada, Self.cleo])
        }
    }

    @Test(
        "a refused token whose fresh listing fails too reports the listing's error; the next signal converges",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)))
    func refusedTokenAndFailingListing() async throws {
        try await withCardDAVFixture(proxy: .refusesTokensOnRequest) { fixture in
            let proxy = try #require(fixture.proxy)
            try await fixture.book.put(Self.ada)
            try fixture.signal()
            try proxy.refuseNextToken("410-then-500")
            try await fixture.book.put(Self.bob)
            let failed = try fixture.signal(expect: 1)
            let error = try #require(failed["error"] as? [String: Any], "\(failed)")
            let message = error["message"] as? String ?? ""
            #expect(message.contains("HTTP 500"), "the listing's error, not the refused token's: \(message)")
            #expect(!message.contains("410"), "\(message)")

            let recovered = try fixture.signal()
            #expect(recovered["error"] == nil, "\(recovered)")
            try expectSystem(fixture, holds: [Self.ada, Self.bob])
        }
    }

    @Test(
        "a server without sync-collection (403 supported-report, 501) syncs by ETag listings: pages, batches, edits, deletions, idle",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)),
        arguments: [403, 501])
    func etagListingFallback(status: Int) async throws {
        try await withCardDAVFixture(
            proxy: .withoutSyncCollection(status: status), enableOptions: ["--page-size", "2", "--batch-size", "2"]
        ) { fixture in
            try await CardDAVSyncTests.addChangeDeleteScenario(fixture)
        }
    }

    @Test(
        "Xandikos, edited by vdirsyncer: content, additions, edits and deletions reach the system store, field by field",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)))
    func xandikosEditedByVdirsyncer() async throws {
        try await withCardDAVFixture(server: .xandikos, enableOptions: ["--page-size", "2", "--batch-size", "2"]) {
            fixture in
            let client = try VdirsyncerClient(python: try PythonTestTools.python(), collection: fixture.book.collection)
            defer { client.remove() }
            for card in [Self.ada, Self.bob, Self.cleo] { try client.write(card.uid, vCard: card.vCard) }
            try client.sync()
            let first = try fixture.signal()
            #expect(first["enumeration"] as? String == "content")
            #expect(first["pages"] as? Int == 2)
            try expectSystem(fixture, holds: [Self.ada, Self.bob, Self.cleo])

            var cleo = Self.cleo
            cleo.phone = "+33 1 98 76 54 32"
            cleo.note = "moved"
            let dan = ServerCard(uid: "dan", given: "Dan", family: "Brown", email: "dan@example.org")
            try client.write(cleo.uid, vCard: cleo.vCard)
            try client.write(dan.uid, vCard: dan.vCard)
            try client.remove(Self.ada.uid)
            try client.sync()
            let second = try fixture.signal()
            #expect(second["enumeration"] as? String == "changes", "\(second)")
            #expect(second["updated"] as? Int == 2)
            #expect(second["deleted"] as? Int == 1)
            try expectSystem(fixture, holds: [Self.bob, cleo, dan])

            let idle = try fixture.signal()
            #expect(idle["updated"] as? Int == 0)
            #expect(idle["deleted"] as? Int == 0)
        }
    }
}
