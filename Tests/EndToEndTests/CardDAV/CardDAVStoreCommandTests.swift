import Foundation
import TestSupport
import Testing

/// Issue 39: with `enable --backend carddav:URL` the contact commands edit the address book on the
/// server, as the app would, through the kit's own CardDAV backend, and the provider syncs it.
@Suite(
    "End to end: contact commands on a CardDAV store (a live Radicale)",
    .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)))
struct CardDAVStoreCommandTests {
    @Test("add, list, get, update, delete, import and reset reach the server; signal brings each change to the system")
    func contactCommandsEditTheServer() async throws {
        try await withCardDAVFixture(credentials: ("tester", "s3cret pass")) { fixture in
            let group = fixture.group
            let store = "carddav:" + fixture.book.collection.absoluteString
            try host(["enable", "--extension", BuiltProducts.path("carddav-provider"), "--backend", store], in: group)

            let added = try host(
                ["add", "--id", "ada", "--given-name", "Ada", "--phone", "mobile=+44 20 7946 0000"], in: group)
            #expect(added.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ada")
            let listed = try CLIHarness.contacts(try host(["list", "--json"], in: group).stdout)
            #expect(listed.map(\.identifier) == ["ada"], "\(listed)")
            #expect(try await fixture.book.get("ada.vcf").contains("FN:Ada"), "the card is not on the server")
            try fixture.signal()
            #expect(try fixture.systemContacts().keys.sorted() == ["ada"])

            try host(["update", "ada", "--family-name", "Lovelace"], in: group)
            #expect(try host(["get", "ada", "--json"], in: group).stdout.contains("Lovelace"))
            let file = group.path + "/more.json"
            try Data(
                #"[{"identifier": "grace", "givenName": "Grace"}, {"identifier": "alan", "givenName": "Alan"}]"#.utf8
            )
            .write(to: URL(fileURLWithPath: file))
            try host(["import", file], in: group)
            try host(["delete", "alan"], in: group)
            try fixture.signal()
            let system = try fixture.systemContacts()
            #expect(system.keys.sorted() == ["ada", "grace"], "\(system.keys.sorted())")
            #expect(system["ada"]?["familyName"] as? String == "Lovelace")

            // An unknown identifier deletes nothing, naming it.
            try host(["delete", "nobody", "grace"], in: group, expect: 1)
            #expect(try CLIHarness.contacts(try host(["list", "--json"], in: group).stdout).count == 2)

            try host(["reset"], in: group)
            #expect(try CLIHarness.contacts(try host(["list", "--json"], in: group).stdout).isEmpty)
            try fixture.signal()
            #expect(try fixture.systemContacts().isEmpty)
        }
    }
}
