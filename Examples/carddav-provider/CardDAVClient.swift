// The requests a sync needs: a sync-collection REPORT (RFC 6578), or on a server without it a
// PROPFIND listing of ETags (ETagListing.swift), and an addressbook-multiget REPORT (RFC 6352 §8.7),
// over URLSession.

import ContactProvider

/// What a sync-collection REPORT said.
enum SyncCollectionResult: Sendable {
    /// The members changed (or, from an empty token, all members), the removed ones, and the new token.
    case changes(changed: [String], removed: [String], token: String)
    /// The server no longer accepts the token (`DAV:valid-sync-token` precondition).
    case tokenInvalid
    /// The server has no sync-collection REPORT (it refused one with an empty token).
    case unsupported
}

/// A small CardDAV client for one address book collection.
struct CardDAVClient: Sendable {
    let configuration: CardDAVConfiguration
    let authorization: String?
    let session: URLSession

    init(configuration: CardDAVConfiguration) throws {
        self.configuration = configuration
        self.authorization = try configuration.authorization()
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        // A server that accepts the connection and then says nothing must not hang the sync.
        sessionConfiguration.timeoutIntervalForRequest = 30
        sessionConfiguration.timeoutIntervalForResource = 120
        sessionConfiguration.urlCache = nil
        session = URLSession(configuration: sessionConfiguration, delegate: CredentialsRejected(), delegateQueue: nil)
    }

    /// Lists members changed and removed since `token` (an empty token lists every member), by
    /// sync-collection, or by an ETag listing diffed against the one the token names when the server
    /// has no sync-collection (or the token is of that mode). `listings` keeps the ETag listings.
    func changes(from token: String, listings: ETagListingStore) async throws -> SyncCollectionResult {
        if !token.hasPrefix(ETagListing.tokenPrefix) {
            let result = try await syncCollection(from: token)
            guard case .unsupported = result else { return result }
        }
        let current = try await etagListing()
        try listings.save(current)
        if token.isEmpty || !token.hasPrefix(ETagListing.tokenPrefix) {
            return .changes(changed: Array(current.etags.keys), removed: [], token: current.token)
        }
        guard let earlier = listings.listing(for: token) else { return .tokenInvalid }
        let (changed, removed) = current.changes(since: earlier)
        return .changes(changed: changed, removed: removed, token: current.token)
    }

    /// Every member card and its ETag: `PROPFIND Depth: 1` for `DAV:getetag` (RFC 4918 §9.1).
    func etagListing() async throws -> ETagListing {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/><D:getetag/></D:prop></D:propfind>
            """
        let (status, data) = try await send("PROPFIND", body: body, depth: "1")
        guard status == 207 else {
            throw CardDAVError.http(method: "PROPFIND", url: configuration.url.absoluteString, status: status)
        }
        var etags: [String: String] = [:]
        let collectionPath = configuration.url.path
        for response in try parse(data).responses {
            if response.href.hasSuffix("/") || Self.samePath(response.href, collectionPath) { continue }
            guard let etag = response.etag else {
                throw CardDAVError.badResponse(
                    url: configuration.url.absoluteString, reason: "the listing has no DAV:getetag for \(response.href)"
                )
            }
            etags[response.href] = etag
        }
        return ETagListing(etags: etags)
    }

    /// Lists members changed and removed since `token` with a sync-collection REPORT (an empty token
    /// lists every member).
    func syncCollection(from token: String) async throws -> SyncCollectionResult {
        let tokenElement = token.isEmpty ? "<D:sync-token/>" : "<D:sync-token>\(Self.escape(token))</D:sync-token>"
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:sync-collection xmlns:D="DAV:">\(tokenElement)<D:sync-level>1</D:sync-level>\
            <D:prop><D:getetag/></D:prop></D:sync-collection>
            """
        let (status, data) = try await send("REPORT", body: body, depth: nil)
        // Servers refuse a token they no longer honour in more ways than RFC 6578's 403 with the
        // DAV:valid-sync-token precondition: 410 Gone, 412, a bare 403 or 400. Any refusal of a
        // token-bearing request is an expired anchor, and the system lists the collection afresh (if
        // that fails too, its error is the one reported). Not a refusal of the token: 401/407 (the
        // credentials), 404 (the collection itself is gone), 405/501 (no sync-collection at all).
        if !token.isEmpty, (400..<500).contains(status), ![401, 404, 405, 407].contains(status) {
            return .tokenInvalid
        }
        // A server without sync-collection refuses the REPORT itself: 403 with the DAV:supported-report
        // precondition (RFC 3253 §3.6), 400, 405 or 501. The ETag listing takes over; a server that
        // refuses that too reports its own error.
        if token.isEmpty, [400, 403, 405, 501].contains(status) {
            return .unsupported
        }
        guard status == 207 else {
            throw CardDAVError.http(
                method: "REPORT sync-collection", url: configuration.url.absoluteString, status: status)
        }
        let multistatus = try parse(data)
        guard let newToken = multistatus.syncToken, !newToken.isEmpty else {
            throw CardDAVError.badResponse(
                url: configuration.url.absoluteString, reason: "the sync-collection answer has no DAV:sync-token")
        }
        var changed: [String] = []
        var removed: [String] = []
        let collectionPath = configuration.url.path
        for response in multistatus.responses {
            // Some servers list the collection itself; it is not a card.
            if response.href.hasSuffix("/") || Self.samePath(response.href, collectionPath) { continue }
            if response.status == 404 { removed.append(response.href) } else { changed.append(response.href) }
        }
        return .changes(changed: changed, removed: removed, token: newToken)
    }

    /// Fetches the vCards at `hrefs`: found ones with their text; those the server no longer has as missing.
    func multiget(_ hrefs: [String]) async throws -> (found: [(href: String, vCard: String)], missing: [String]) {
        guard !hrefs.isEmpty else { return ([], []) }
        let hrefElements = hrefs.map { "<D:href>\(Self.escape($0))</D:href>" }.joined()
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <C:addressbook-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">\
            <D:prop><D:getetag/><C:address-data/></D:prop>\(hrefElements)</C:addressbook-multiget>
            """
        let (status, data) = try await send("REPORT", body: body, depth: "1")
        guard status == 207 else {
            throw CardDAVError.http(
                method: "REPORT addressbook-multiget", url: configuration.url.absoluteString, status: status)
        }
        let multistatus = try parse(data)
        var byHref: [String: String] = [:]
        for response in multistatus.responses {
            if let card = response.addressData { byHref[Self.normalized(response.href)] = card }
        }
        var found: [(href: String, vCard: String)] = []
        var missing: [String] = []
        for href in hrefs {
            if let card = byHref[Self.normalized(href)] { found.append((href, card)) } else { missing.append(href) }
        }
        return (found, missing)
    }

    private func parse(_ data: Data) throws -> Multistatus {
        do {
            return try Multistatus.parse(data)
        } catch {
            throw CardDAVError.badResponse(url: configuration.url.absoluteString, reason: "\(error)")
        }
    }

    private func send(_ method: String, body: String, depth: String?) async throws -> (Int, Data) {
        var request = URLRequest(url: configuration.url)
        request.httpMethod = method
        request.httpBody = Data(body.utf8)
        request.setValue("application/xml; charset=utf-8", forHTTPHeaderField: "Content-Type")
        if let depth { request.setValue(depth, forHTTPHeaderField: "Depth") }
        if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else {
                throw CardDAVError.badResponse(url: configuration.url.absoluteString, reason: "not an HTTP response")
            }
            return (http.statusCode, data)
        } catch let error as CardDAVError {
            throw error
        } catch let error as URLError where error.code == .cancelled {
            // CredentialsRejected cancelled an authentication challenge: the server answered 401.
            throw CardDAVError.http(method: method, url: configuration.url.absoluteString, status: 401)
        } catch let error as URLError {
            throw CardDAVError.unreachable(url: configuration.url.absoluteString, reason: Self.describe(error))
        } catch {
            throw CardDAVError.unreachable(
                url: configuration.url.absoluteString, reason: "\(error.localizedDescription)")
        }
    }

    private static func describe(_ error: URLError) -> String {
        switch error.code {
        case .timedOut: return "the request timed out"
        case .cannotConnectToHost: return "connection refused (is the server running?)"
        case .cannotFindHost: return "unknown host"
        case .networkConnectionLost: return "the connection was lost"
        case .notConnectedToInternet: return "not connected to a network"
        default: return "\(error.localizedDescription) (URLError \(error.code.rawValue))"
        }
    }

    /// An href as a percent-decoded path, so `/a%40b.vcf` and `/a@b.vcf` match.
    static func normalized(_ href: String) -> String {
        let path = URL(string: href)?.path ?? href
        return path.removingPercentEncoding ?? path
    }

    private static func samePath(_ href: String, _ collectionPath: String) -> Bool {
        let a = normalized(href)
        let b = collectionPath.removingPercentEncoding ?? collectionPath
        return a.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            == b.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// Answers every authentication challenge by cancelling the request.
///
/// The client sends its `Authorization` header itself, so a challenge means the server refused
/// those credentials (HTTP 401). Cancelling turns that into a prompt error; without a delegate,
/// FoundationNetworking on Linux was measured to wait forever on a 401 (no timeout applied).
final class CredentialsRejected: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
}
