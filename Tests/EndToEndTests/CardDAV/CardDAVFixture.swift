import Foundation
import TestSupport
import Testing

/// One test's world: a Radicale with an empty address book, an App Group whose domain runs the
/// `carddav-provider` example pointed at it, and a client that edits the server behind its back.
///
/// Made only by ``withCardDAVFixture(credentials:enableOptions:isolation:_:)``, which always stops the
/// provider and the server and removes the App Group.
final class CardDAVFixture: @unchecked Sendable {
    let server: RadicaleServer
    let group: TemporaryAppGroup
    let book: CardDAVTestClient

    fileprivate init(server: RadicaleServer, group: TemporaryAppGroup, credentials: (user: String, password: String)?) {
        self.server = server
        self.group = group
        book = CardDAVTestClient(
            collection: URL(string: "tester/contacts/", relativeTo: server.baseURL)!.absoluteURL,
            credentials: credentials)
    }

    /// Creates `tester/contacts/` and enables the domain with `enableOptions`.
    fileprivate func setUp(credentials: (user: String, password: String)?, enableOptions: [String]) async throws {
        try await book.createAddressBook()
        var configure = ["carddav", "configure", "--url", book.collection.absoluteString]
        if let credentials {
            let passwordFile = group.path + "/password"
            _ = FileManager.default.createFile(
                atPath: passwordFile, contents: Data(credentials.password.utf8),
                attributes: [.posixPermissions: 0o600])
            configure += ["--username", credentials.user, "--password-file", passwordFile]
        }
        try host(configure, in: group)
        try host(["enable", "--extension", BuiltProducts.path("carddav-provider")] + enableOptions, in: group)
    }

    /// Signals and waits; returns the sync report (exit code `code`).
    @discardableResult
    func signal(expect code: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try jsonObject(
            try host(["signal", "--wait", "--json"], in: group, expect: code, sourceLocation: sourceLocation))
    }

    /// The system store's contacts by identifier.
    func systemContacts() throws -> [String: [String: Any]] {
        let result = try host(["system", "list", "--json"], in: group)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        var byID: [String: [String: Any]] = [:]
        for contact in array { byID[try #require(contact["identifier"] as? String)] = contact }
        return byID
    }

    /// The system store, as canonical JSON text (for before/after comparisons).
    func systemSnapshot() throws -> String {
        try host(["system", "list", "--json"], in: group).stdout
    }
}

/// Runs `body` with a fresh ``CardDAVFixture``: starts Radicale, creates `tester/contacts/` and enables
/// the domain (in a temporary App Group) with `enableOptions`; then, whether `body` returns or throws
/// (or the setup fails), invalidates the provider, removes the App Group (stopping any provider left)
/// and stops the server.
///
/// - Parameters:
///   - credentials: basic authentication for the server (the provider reads the password from a file).
///   - enableOptions: extra `contacts-host enable` options (`--page-size`, `--batch-size`).
///   - isolation: the caller's actor (inferred).
///   - body: the test, given the fixture.
/// - Returns: what `body` returns.
@discardableResult
func withCardDAVFixture<Result>(
    credentials: (user: String, password: String)? = nil, enableOptions: [String] = [],
    isolation: isolated (any Actor)? = #isolation, _ body: (CardDAVFixture) async throws -> Result
) async throws -> Result {
    let server = try RadicaleServer(python: try PythonTestTools.python(), credentials: credentials)
    defer { server.stop() }
    return try await withTemporaryAppGroup(isolation: isolation) { group in
        // The provider ends first; the App Group goes next (withTemporaryAppGroup), the server last.
        defer { _ = try? ProcessRunner.host(["invalidate"], in: group) }
        let fixture = CardDAVFixture(server: server, group: group, credentials: credentials)
        try await fixture.setUp(credentials: credentials, enableOptions: enableOptions)
        return try await body(fixture)
    }
}

/// A contact as the tests put it on the server: one vCard 3.0, compared field by field with what
/// the system store received.
struct ServerCard: Sendable {
    var uid: String
    var given: String
    var family: String
    var phone: String? = nil
    var email: String? = nil
    var organization: String? = nil
    var note: String? = nil

    /// The resource name on the server.
    var resource: String { uid + ".vcf" }

    var vCard: String {
        var lines = ["BEGIN:VCARD", "VERSION:3.0", "UID:\(uid)", "N:\(family);\(given);;;", "FN:\(given) \(family)"]
        if let phone { lines.append("TEL;TYPE=CELL:\(phone)") }
        if let email { lines.append("EMAIL;TYPE=INTERNET,WORK:\(email)") }
        if let organization { lines.append("ORG:\(organization)") }
        if let note { lines.append("NOTE:\(note)") }
        lines.append("END:VCARD")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// Expects the system's contact to hold exactly these values.
    func expectMatches(_ contact: [String: Any]?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let contact else {
            Issue.record("contact \(uid) is missing from the system store", sourceLocation: sourceLocation)
            return
        }
        #expect(contact["givenName"] as? String == given, "\(uid) givenName", sourceLocation: sourceLocation)
        #expect(contact["familyName"] as? String == family, "\(uid) familyName", sourceLocation: sourceLocation)
        let phones = (contact["phoneNumbers"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
        #expect(phones == (phone.map { [$0] } ?? []), "\(uid) phoneNumbers", sourceLocation: sourceLocation)
        let emails = (contact["emailAddresses"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
        #expect(emails == (email.map { [$0] } ?? []), "\(uid) emailAddresses", sourceLocation: sourceLocation)
        #expect(
            (contact["organizationName"] as? String ?? "") == (organization ?? ""), "\(uid) organizationName",
            sourceLocation: sourceLocation)
        #expect((contact["note"] as? String ?? "") == (note ?? ""), "\(uid) note", sourceLocation: sourceLocation)
    }
}

extension CardDAVTestClient {
    /// Stores `card` on the server.
    func put(_ card: ServerCard) async throws {
        try await put(card.resource, vCard: card.vCard)
    }
}

/// Expects the system store to hold exactly `cards`, field by field.
func expectSystem(
    _ fixture: CardDAVFixture, holds cards: [ServerCard], sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let system = try fixture.systemContacts()
    #expect(
        Set(system.keys) == Set(cards.map(\.uid)), "identifiers in the system store", sourceLocation: sourceLocation)
    for card in cards { card.expectMatches(system[card.uid], sourceLocation: sourceLocation) }
}
