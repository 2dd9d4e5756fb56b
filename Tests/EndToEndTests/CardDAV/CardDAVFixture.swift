import Foundation
import TestSupport
import Testing

/// One test's world: a real CardDAV server (Radicale or Xandikos) with an empty address book, maybe
/// behind the refusing proxy, an App Group whose domain runs the `carddav-provider` example pointed at
/// it (through the proxy, when there is one), and a client that edits the server behind its back.
///
/// Made only by ``withCardDAVFixture(server:proxy:credentials:enableOptions:isolation:_:)``, which
/// always stops the provider, the proxy and the server and removes the App Group.
final class CardDAVFixture: @unchecked Sendable {
    let server: any CardDAVTestServer
    let proxy: CardDAVRefusingProxy?
    let group: TemporaryAppGroup
    /// Edits the address book directly on the server (not through the proxy).
    let book: CardDAVTestClient

    fileprivate init(
        server: any CardDAVTestServer, proxy: CardDAVRefusingProxy?, group: TemporaryAppGroup,
        credentials: (user: String, password: String)?
    ) {
        self.server = server
        self.proxy = proxy
        self.group = group
        book = CardDAVTestClient(
            collection: URL(string: server.addressBookPath, relativeTo: server.baseURL)!.absoluteURL,
            credentials: credentials)
    }

    /// The address book as the provider sees it: through the proxy, if any.
    var providerURL: URL {
        guard let proxy else { return book.collection }
        return URL(string: server.addressBookPath, relativeTo: proxy.baseURL)!.absoluteURL
    }

    /// Creates the address book and enables the domain with `enableOptions`.
    fileprivate func setUp(credentials: (user: String, password: String)?, enableOptions: [String]) async throws {
        try await book.createAddressBook()
        var configure = ["carddav", "configure", "--url", providerURL.absoluteString]
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

/// Runs `body` with a fresh ``CardDAVFixture``: starts the server (and the proxy), creates the address
/// book and enables the domain (in a temporary App Group) with `enableOptions`; then, whether `body`
/// returns or throws (or the setup fails), invalidates the provider, removes the App Group (stopping
/// any provider left) and stops the proxy and the server.
///
/// - Parameters:
///   - server: which server.
///   - proxy: the refusing proxy's mode, or nil for none.
///   - credentials: basic authentication for the server (the provider reads the password from a file).
///   - enableOptions: extra `contacts-host enable` options (`--page-size`, `--batch-size`).
///   - isolation: the caller's actor (inferred).
///   - body: the test, given the fixture.
/// - Returns: what `body` returns.
@discardableResult
func withCardDAVFixture<Result>(
    server kind: CardDAVServerKind = .radicale, proxy mode: CardDAVRefusingProxy.Mode? = nil,
    credentials: (user: String, password: String)? = nil, enableOptions: [String] = [],
    isolation: isolated (any Actor)? = #isolation, _ body: (CardDAVFixture) async throws -> Result
) async throws -> Result {
    let python = try PythonTestTools.python()
    let server = try kind.start(python: python, credentials: credentials)
    defer { server.stop() }
    let proxy = try mode.map { try CardDAVRefusingProxy(python: python, upstream: server.baseURL, mode: $0) }
    defer { proxy?.stop() }
    return try await withTemporaryAppGroup(isolation: isolation) { group in
        // The provider ends first; the App Group goes next (withTemporaryAppGroup), the server last.
        defer { _ = try? HostRunner.process.run(["invalidate"], in: group) }
        let fixture = CardDAVFixture(server: server, proxy: proxy, group: group, credentials: credentials)
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
