import AppGroupStore
import AppStores
import ContactsInterop
import Foundation
import FoundationNetworking

/// A backend the kit prepares inside its temporary App Group before the provider runs (a provider
/// that reads its account settings from the App Group needs them there).
public protocol AppGroupConfiguringBackend: ConformanceBackend {
    /// Writes whatever the provider reads from `appGroup` (called once, before the first sync).
    func configureProvider(in appGroup: AppGroup) throws
}

/// A CardDAV address book (`carddav:URL`): the kit edits it over HTTP, as another client of the
/// server would, and points the `carddav-provider` example at it.
///
/// - add and update: `PUT` of the contact's vCard 3.0 (the project's encoder; `UID` = identifier);
/// - delete: `DELETE` of its resource;
/// - reset: `DELETE` of the whole collection and an extended `MKCOL` that recreates it as an
///   address book, so the server's old sync tokens become invalid (anchors must expire);
/// - ``configureProvider(in:)`` writes `carddav.json` (mode 0600) into the kit's App Group;
/// - T1 (the store failing for a moment): after ``startFailureProxy()``, which the kit's runs call
///   for an `http:` server, the provider reads the server through a proxy of the kit's that answers
///   `503 Service Unavailable` while the server is to fail (``TransientFailureInjecting``).
///
/// What the system must end up with is each contact as the project's decoder reads the vCard that
/// was sent, so a difference is a sync fault, not a codec one.
public final class CardDAVBackend: AppGroupConfiguringBackend, @unchecked Sendable {
    /// The address book collection (ends with `/`).
    public let collection: URL
    private let username: String?
    private let passwordFile: String?
    private let authorization: String?
    private let session: URLSession
    private var written: [String: ConformanceContact] = [:]
    /// Between the provider and the server once ``startFailureProxy()`` has run; ended with the backend.
    private(set) var failureProxy: CardDAVFailureProxy?

    /// A backend for `argument`, the text after `carddav:` (`http://127.0.0.1:5232/user/book/`).
    ///
    /// - Parameters:
    ///   - argument: the address book's URL, as written after `carddav:`.
    ///   - username: the user for basic authentication, if the server asks for one.
    ///   - passwordFile: the file that holds the password (never passed as text).
    ///   - requestTimeoutSeconds: how long one request to the server may take (see
    ///     ``init(collection:username:passwordFile:requestTimeoutSeconds:)``).
    /// - Throws: ``CardDAVBackendError`` when `argument` is not an http(s) URL with a host, or the
    ///   password file cannot be read.
    public convenience init(
        argument: String, username: String? = nil, passwordFile: String? = nil, requestTimeoutSeconds: Double = 30
    ) throws {
        guard let url = ConformanceBackendKind.cardDAVCollection(argument) else {
            throw CardDAVBackendError("carddav: needs an http or https address book URL, got '\(argument)'")
        }
        try self.init(
            collection: url, username: username, passwordFile: passwordFile,
            requestTimeoutSeconds: requestTimeoutSeconds)
    }

    /// A backend for the address book at `collection`, with basic authentication when `username`
    /// is given (the password is read from `passwordFile`, never passed as text).
    ///
    /// - Parameters:
    ///   - collection: the address book collection's URL.
    ///   - username: the user for basic authentication, if the server asks for one.
    ///   - passwordFile: the file that holds the password (never passed as text).
    ///   - requestTimeoutSeconds: how long one request to the server may take before the kit
    ///     reports it failed. A conformance run passes its own time scale (three times
    ///     `--page-timeout`, at least 30 s): on a busy machine a local Radicale once took more than
    ///     the fixed 30 s to delete an address book, and the run failed a rule it had not checked.
    public init(
        collection: URL, username: String? = nil, passwordFile: String? = nil, requestTimeoutSeconds: Double = 30
    ) throws {
        self.collection = collection
        self.username = username
        self.passwordFile = passwordFile
        if let username {
            var password = ""
            if let passwordFile {
                guard let text = try? String(contentsOfFile: passwordFile, encoding: .utf8) else {
                    throw CardDAVBackendError("cannot read the password file \(passwordFile)")
                }
                password = text
                while password.hasSuffix("\n") || password.hasSuffix("\r") { password.removeLast() }
            }
            authorization = "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
        } else {
            authorization = nil
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeoutSeconds
        session = URLSession(configuration: configuration, delegate: RefuseChallenges(), delegateQueue: nil)
    }

    deinit { failureProxy?.stop() }

    /// The address book as the provider reads it: ``collection``, or after ``startFailureProxy()`` the
    /// same path on the kit's proxy (`http://127.0.0.1:PORT/user/book/`).
    public var providerCollection: URL {
        guard let failureProxy, var components = URLComponents(url: collection, resolvingAgainstBaseURL: true) else {
            return collection
        }
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = failureProxy.port
        return components.url ?? collection
    }

    /// Puts a proxy of the kit's between the provider and the server, so rule T1 can make the server
    /// fail for a moment (``TransientFailureInjecting``): call it before ``configureProvider(in:)``,
    /// which then points the provider at the proxy. The proxy forwards every request and answer byte
    /// for byte, on 127.0.0.1, until the backend ends. `contacts-host conformance --backend carddav:URL`
    /// and ``ConformanceBackendKind/makeBackend(appGroup:timeoutSeconds:)`` call it for an `http:` server.
    ///
    /// - Throws: ``CardDAVBackendError`` for an `https:` server (the proxy has no TLS of its own, so it
    ///   cannot stand in front of one), or when the proxy cannot start.
    public func startFailureProxy() throws {
        guard failureProxy == nil else { return }
        guard collection.scheme?.lowercased() == "http", let host = collection.host else {
            throw CardDAVBackendError(
                "the kit's failure proxy forwards plain http only (it has no TLS of its own), and \(collection.absoluteString) is not http"
            )
        }
        failureProxy = try CardDAVFailureProxy(upstreamHost: host, upstreamPort: collection.port ?? 80)
    }

    public func configureProvider(in appGroup: AppGroup) throws {
        var configuration = ["url": providerCollection.absoluteString]
        if let username { configuration["username"] = username }
        if let passwordFile { configuration["passwordFile"] = passwordFile }
        let data = try JSONSerialization.data(withJSONObject: configuration, options: [.sortedKeys])
        try SecureFile.replace(appGroup.path + "/carddav.json", with: data)
    }

    public func reset() throws {
        try send("DELETE", collection, expect: [200, 204, 404])
        try send("MKCOL", collection.deletingLastPathComponent(), expect: [201, 405])  // 405: the parent exists
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:mkcol xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><D:set><D:prop>\
            <D:resourcetype><D:collection/><C:addressbook/></D:resourcetype></D:prop></D:set></D:mkcol>
            """
        try send("MKCOL", collection, body: Data(body.utf8), contentType: "application/xml", expect: [201])
        written = [:]
    }

    public func add(_ contact: ConformanceContact) throws { try put(contact) }

    public func update(_ contact: ConformanceContact) throws { try put(contact) }

    public func delete(identifier: String) throws {
        try send("DELETE", resource(identifier), expect: [200, 204])
        written[identifier] = nil
    }

    public func contacts() throws -> [ConformanceContact] {
        written.values.sorted { $0.identifier < $1.identifier }
    }

    /// Every contact the address book holds on the server now, read with one `REPORT`
    /// (`addressbook-query` with `address-data`, RFC 6352 §8.6) and decoded by the project's vCard
    /// decoder, sorted by identifier.
    ///
    /// ``contacts()`` is what this backend wrote (the kit compares the system with exactly the cards
    /// it sent); this is what any client of the server sees, for `contacts-host`'s contact commands
    /// on a domain whose store is this address book (`enable --backend carddav:URL`).
    public func serverContacts() throws -> [ConformanceContact] {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <C:addressbook-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">\
            <D:prop><D:getetag/><C:address-data/></D:prop></C:addressbook-query>
            """
        let data = try send(
            "REPORT", collection, body: Data(body.utf8), contentType: "application/xml; charset=utf-8",
            headers: ["Depth": "1"], expect: [207])
        let cards: [String]
        do {
            cards = try AddressDataReader.cards(in: data)
        } catch {
            throw CardDAVBackendError("REPORT \(collection.path) answered a multistatus that cannot be read: \(error)")
        }
        return cards.flatMap { VCard.decode($0).contacts }.sorted { $0.identifier < $1.identifier }
    }

    private func put(_ contact: ConformanceContact) throws {
        let text = VCard.encode([contact], version: .v3)
        try send(
            "PUT", resource(contact.identifier), body: Data(text.utf8), contentType: "text/vcard; charset=utf-8",
            expect: [200, 201, 204])
        // Expected: the card as a reader of these bytes (the provider) gets it.
        guard let decoded = VCard.decode(text).contacts.first else {
            throw CardDAVBackendError("the encoder's vCard for \(contact.identifier) does not decode")
        }
        written[contact.identifier] = decoded
    }

    /// The resource of a contact: its identifier when that is a safe file name, else its hex.
    private func resource(_ identifier: String) -> URL {
        let safe = identifier.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        let name =
            safe && !identifier.isEmpty ? identifier : identifier.utf8.map { String(format: "%02x", $0) }.joined()
        return collection.appendingPathComponent(name + ".vcf")
    }

    @discardableResult
    private func send(
        _ method: String, _ url: URL, body: Data? = nil, contentType: String? = nil, headers: [String: String] = [:],
        expect: Set<Int>
    ) throws -> Data {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: request) { data, response, error in
            outcome.set(status: (response as? HTTPURLResponse)?.statusCode, data: data, error: error)
            done.signal()
        }.resume()
        done.wait()
        let (status, data, error) = outcome.get()
        if let refused = error as? URLError, refused.code == .cancelled {
            throw CardDAVBackendError(
                "\(method) \(url.path) was refused: HTTP 401 (check the user name and password file)")
        }
        if let error {
            throw CardDAVBackendError("\(method) \(url.absoluteString) failed: \(error.localizedDescription)")
        }
        guard let status, expect.contains(status) else {
            let said = String(decoding: (data ?? Data()).prefix(300), as: UTF8.self)
            throw CardDAVBackendError("\(method) \(url.path) answered HTTP \(status.map(String.init) ?? "?"): \(said)")
        }
        return data ?? Data()
    }
}

/// A CardDAV backend request failed, or its URL is not usable.
public struct CardDAVBackendError: Error, CustomStringConvertible, LocalizedError {
    /// What failed and why.
    public let description: String
    /// The same, for `localizedDescription`.
    public var errorDescription: String? { description }
    init(_ description: String) { self.description = description }
}

/// One request's result, handed from URLSession's queue to the waiting caller.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var status: Int?
    private var data: Data?
    private var error: (any Error)?

    func set(status: Int?, data: Data?, error: (any Error)?) {
        lock.withLock { (self.status, self.data, self.error) = (status, data, error) }
    }

    func get() -> (Int?, Data?, (any Error)?) { lock.withLock { (status, data, error) } }
}

/// Cancels authentication challenges: the `Authorization` header is sent up front, so a challenge
/// means the credentials were refused (FoundationNetworking on Linux otherwise waits forever).
private final class RefuseChallenges: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
}
