import Foundation
import TestSupport
import Testing

/// The `carddav-provider` example against a live Radicale (installed by `Scripts/install-test-tools.sh`),
/// with real processes: what is edited on the server reaches the system store after a signal.
@Suite("End to end: the CardDAV provider syncs from a live Radicale")
struct CardDAVSyncTests {
    static let ada = ServerCard(
        uid: "ada", given: "Ada", family: "Lovelace", phone: "+44 20 7946 0000",
        email: "ada@example.com", organization: "Analytical Engines", note: "First programmer")
    static let bob = ServerCard(uid: "bob", given: "Bob", family: "Smith", email: "bob@example.com")
    static let cleo = ServerCard(uid: "cleo", given: "Cléo", family: "Doe", phone: "+33 1 23 45 67 89")

    @Test(
        "cards added, changed and deleted on the server reach the system store, field by field",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)))
    func addChangeDelete() async throws {
        try await withCardDAVFixture(enableOptions: ["--page-size", "2", "--batch-size", "2"]) { fixture in
            try await Self.addChangeDeleteScenario(fixture)
        }
    }

    /// Three cards, a content sync in pages of 2; then an edit, an addition and a deletion on the
    /// server, one change sync in batches of 2 (never a restart); then an idle sync. The system store
    /// is compared field by field after each. Run against Radicale as it is, and against a server
    /// without sync-collection (`CardDAVServerBehaviourTests`). The domain must use page and batch size 2.
    static func addChangeDeleteScenario(_ fixture: CardDAVFixture) async throws {
        for card in [ada, bob, cleo] { try await fixture.book.put(card) }

        let first = try fixture.signal()
        #expect(first["enumeration"] as? String == "content")
        #expect(first["pages"] as? Int == 2)
        try expectSystem(fixture, holds: [ada, bob, cleo])

        var edited = ada
        edited.family = "King"
        edited.phone = "+44 20 7946 0001"
        edited.email = nil
        edited.note = nil
        let dan = ServerCard(uid: "dan", given: "Dan", family: "Brown", organization: "Books")
        try await fixture.book.put(edited)
        try await fixture.book.put(dan)
        try await fixture.book.delete(bob.resource)
        let second = try fixture.signal()
        #expect(second["enumeration"] as? String == "changes", "\(second)")
        #expect(second["restarted"] as? Bool != true, "\(second)")
        #expect(second["updated"] as? Int == 2)
        #expect(second["deleted"] as? Int == 1)
        #expect(second["batches"] as? Int == 2, "3 changes in batches of 2")
        try expectSystem(fixture, holds: [edited, cleo, dan])

        let idle = try fixture.signal()
        #expect(idle["enumeration"] as? String == "changes")
        #expect(idle["updated"] as? Int == 0)
        #expect(idle["deleted"] as? Int == 0)
        try expectSystem(fixture, holds: [edited, cleo, dan])
    }

    @Test(
        "more cards than one page and more changes than one batch arrive complete",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)))
    func pagesAndBatches() async throws {
        try await withCardDAVFixture(enableOptions: ["--page-size", "5", "--batch-size", "4"]) { fixture in
            var cards = (0..<23).map {
                ServerCard(uid: String(format: "p%03d", $0), given: "Given\($0)", family: "Family\($0)")
            }
            for card in cards { try await fixture.book.put(card) }
            let content = try fixture.signal()
            #expect(content["pages"] as? Int == 5)
            #expect(content["systemCount"] as? Int == 23)
            try expectSystem(fixture, holds: cards)

            for index in 0..<10 {
                cards[index].phone = "+1 555 000 \(String(format: "%04d", index))"
                try await fixture.book.put(cards[index])
            }
            for card in cards.suffix(3) { try await fixture.book.delete(card.resource) }
            cards.removeLast(3)
            let changes = try fixture.signal()
            #expect(changes["enumeration"] as? String == "changes")
            #expect(changes["updated"] as? Int == 10)
            #expect(changes["deleted"] as? Int == 3)
            #expect(changes["batches"] as? Int == 4, "13 changes in batches of 4")
            try expectSystem(fixture, holds: cards)
        }
    }

    @Test(
        "a sync-token the server no longer accepts leads to a full re-enumeration with nothing stale",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)))
    func expiredToken() async throws {
        try await withCardDAVFixture { fixture in
            for card in [Self.ada, Self.bob, Self.cleo] { try await fixture.book.put(card) }
            try fixture.signal()
            try expectSystem(fixture, holds: [Self.ada, Self.bob, Self.cleo])

            // The address book is deleted and recreated: its sync tokens die with it.
            try await fixture.book.deleteAddressBook()
            try await fixture.book.createAddressBook()
            var ada = Self.ada
            ada.given = "Augusta Ada"
            let eve = ServerCard(uid: "eve", given: "Eve", family: "Online")
            try await fixture.book.put(ada)
            try await fixture.book.put(eve)
            let report = try fixture.signal()
            #expect(report["restarted"] as? Bool == true, "changeAnchorExpired should restart content enumeration")
            try expectSystem(fixture, holds: [ada, eve])
        }
    }

    @Test(
        "Radicale killed in the middle of a sync: a clear error, nothing half-committed, converges after a restart",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)))
    func serverKilledMidSync() async throws {
        try await withCardDAVFixture(enableOptions: ["--batch-size", "2"]) { fixture in
            var cards = (0..<6).map { ServerCard(uid: "k\($0)", given: "Kay\($0)", family: "Before") }
            for card in cards { try await fixture.book.put(card) }
            try fixture.signal()
            try expectSystem(fixture, holds: cards)

            for index in cards.indices {
                cards[index].family = "After"
                try await fixture.book.put(cards[index])
            }
            // One batch of two is committed, then the server dies.
            let step = try jsonObject(try host(["step", "--json"], in: fixture.group))
            #expect(step["batches"] as? Int == 1)
            let afterOneBatch = try fixture.systemSnapshot()
            #expect(try fixture.systemContacts().values.filter { $0["familyName"] as? String == "After" }.count == 2)
            fixture.server.kill()

            let failed = try fixture.signal(expect: 1)
            let error = try #require(failed["error"] as? [String: Any], "\(failed)")
            let message = try #require(error["message"] as? String)
            #expect(message.contains("unreachable") && message.contains("nothing was committed"), "\(message)")
            let afterFailure = try ContactsDifference(
                appJSON: afterOneBatch, systemJSON: try fixture.systemSnapshot(), sides: ("before", "after"))
            #expect(afterFailure.isEmpty, "a failed sync must not change the system store: \(afterFailure)")

            try fixture.server.restart()
            let recovered = try fixture.signal()
            #expect(recovered["error"] == nil)
            try expectSystem(fixture, holds: cards)
        }
    }

    @Test(
        "with basic authentication: the password file is used, a wrong password fails with HTTP 401",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)))
    func basicAuthentication() async throws {
        try await withCardDAVFixture(credentials: ("tester", "s3cret pass")) { fixture in
            try await fixture.book.put(Self.ada)
            let report = try fixture.signal()
            #expect(report["systemCount"] as? Int == 1)
            try expectSystem(fixture, holds: [Self.ada])
            let configuration = try String(contentsOfFile: fixture.group.path + "/carddav.json", encoding: .utf8)
            #expect(
                !configuration.contains("s3cret"), "carddav.json must name the password file, not hold the password")
            let mode =
                try FileManager.default.attributesOfItem(atPath: fixture.group.path + "/carddav.json")[
                    .posixPermissions]
                as? NSNumber
            #expect(mode?.intValue == 0o600)

            try Data("wrong".utf8).write(to: URL(fileURLWithPath: fixture.group.path + "/password"))
            try await fixture.book.put(Self.bob)
            let refused = try fixture.signal(expect: 1)
            let error = try #require(refused["error"] as? [String: Any], "\(refused)")
            let message = try #require(error["message"] as? String)
            #expect(message.contains("401"), "\(message)")
            #expect(!message.contains("wrong"), "the password must not appear in messages")
            try expectSystem(fixture, holds: [Self.ada])
        }
    }

    @Test(
        "vCards written by the project's encoder are accepted by Radicale and read back equal",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)))
    func encoderRoundTrip() async throws {
        try await withCardDAVFixture { fixture in
            try host(
                [
                    "add", "--id", "rich-1", "--given-name", "Zoë", "--family-name", "Ångström", "--middle-name", "Q",
                    "--nickname", "Zo", "--organization", "Acme; Inc.", "--department", "R&D", "--job-title",
                    "Chief, Tester",
                    "--phone", "mobile=+1 408 555 0101", "--phone", "work=+1 408 555 0102", "--email",
                    "home=zoe@example.com",
                    "--url", "homepage=https://example.com/zoe", "--note",
                    "Line one\nLine two, with comma; and semicolon",
                    "--birthday", "1984-02-29",
                ], in: fixture.group)
            try host(["add", "--id", "plain-2", "--given-name", "Li", "--family-name", "Wei"], in: fixture.group)
            let exported = try host(["export", "--vcard"], in: fixture.group).stdout
            let cards = exported.components(separatedBy: "END:VCARD\r\n").filter { $0.contains("BEGIN:VCARD") }
            #expect(cards.count == 2)
            for (index, card) in cards.enumerated() {
                let status = try await fixture.book.put("card\(index).vcf", vCard: card + "END:VCARD\r\n")
                #expect(status == 201, "Radicale refused the encoder's card \(index)")
            }
            try fixture.signal()
            // The provider decoded Radicale's copies: the system store equals the app's database.
            try expectSystemMatchesApp(fixture.group, count: 2)
        }
    }
}
