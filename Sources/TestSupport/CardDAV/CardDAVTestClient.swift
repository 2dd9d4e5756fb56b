import Foundation
import FoundationNetworking

/// Edits an address book on a CardDAV server the way another client would (PUT, DELETE, MKCOL), so
/// tests can change the server behind a provider's back.
package struct CardDAVTestClient: Sendable {
    /// The address book collection (ends with `/`).
    package let collection: URL
    private let authorization: String?

    /// A client for `collection`, with basic authentication when `credentials` are given.
    package init(collection: URL, credentials: (user: String, password: String)? = nil) {
        self.collection = collection
        authorization = credentials.map { "Basic " + Data("\($0.user):\($0.password)".utf8).base64EncodedString() }
    }

    /// Creates the collection as an address book (extended MKCOL, RFC 5689), and its parent (the
    /// user's home collection) first if needed.
    package func createAddressBook() async throws {
        let parent = collection.deletingLastPathComponent()
        try await send("MKCOL", parent, expect: [201, 405])  // 405: it exists already
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:mkcol xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><D:set><D:prop>\
            <D:resourcetype><D:collection/><C:addressbook/></D:resourcetype>\
            <D:displayname>Test</D:displayname></D:prop></D:set></D:mkcol>
            """
        try await send("MKCOL", collection, body: Data(body.utf8), contentType: "application/xml", expect: [201])
    }

    /// Deletes the whole collection (its sync tokens go with it).
    package func deleteAddressBook() async throws {
        try await send("DELETE", collection, expect: [200, 204, 404])
    }

    /// Stores `vCard` as the resource `name` (e.g. `ada.vcf`); returns the HTTP status.
    @discardableResult
    package func put(_ name: String, vCard: String) async throws -> Int {
        try await send(
            "PUT", collection.appendingPathComponent(name), body: Data(vCard.utf8),
            contentType: "text/vcard; charset=utf-8",
            expect: [201, 204])
    }

    /// Deletes the resource `name`.
    package func delete(_ name: String) async throws {
        try await send("DELETE", collection.appendingPathComponent(name), expect: [200, 204])
    }

    /// The resource `name`'s vCard text.
    package func get(_ name: String) async throws -> String {
        let (status, data) = try await request("GET", collection.appendingPathComponent(name))
        guard status == 200 else { throw CardDAVTestClientError("GET \(name) answered HTTP \(status)") }
        return String(decoding: data, as: UTF8.self)
    }

    /// Sends a request and returns the status and body.
    package func request(
        _ method: String, _ url: URL, body: Data? = nil, contentType: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> (Int, Data) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    @discardableResult
    private func send(_ method: String, _ url: URL, body: Data? = nil, contentType: String? = nil, expect: Set<Int>)
        async throws -> Int
    {
        let (status, data) = try await request(method, url, body: body, contentType: contentType)
        guard expect.contains(status) else {
            throw CardDAVTestClientError(
                "\(method) \(url.path) answered HTTP \(status): \(String(decoding: data, as: UTF8.self))")
        }
        return status
    }
}

/// A request the test expected to succeed did not.
package struct CardDAVTestClientError: Error, CustomStringConvertible {
    /// The method, path, status and body.
    package let description: String
    init(_ description: String) { self.description = description }
}
