import ContactProviderConformance
import Foundation
import Glibc
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 43, item 10: T1 through `carddav:`. The kit puts a proxy of its own between the provider and
/// the server (`CardDAVBackend.startFailureProxy()`), which forwards every request and answer byte
/// for byte and, while the server is to fail, answers `503 Service Unavailable` with `Retry-After`.
/// Checked here against a live Radicale with URLSession, the provider's client.
@Suite("End to end: the kit's CardDAV failure proxy in front of a live Radicale")
struct CardDAVFailureProxyTests {
    /// An answer's status, `Retry-After` and body.
    struct Answer {
        var status: Int
        var retryAfter: String?
        var body: Data
    }

    static func send(
        _ session: URLSession, _ method: String, _ url: URL, body: String? = nil, depth: String? = nil
    ) async throws -> Answer {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        if let depth { request.setValue(depth, forHTTPHeaderField: "Depth") }
        if method == "PUT" { request.setValue("text/vcard; charset=utf-8", forHTTPHeaderField: "Content-Type") }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return Answer(status: http.statusCode, retryAfter: http.value(forHTTPHeaderField: "Retry-After"), body: data)
    }

    /// Whether something accepts connections on 127.0.0.1:`port`.
    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }

    @Test(
        "the proxy forwards requests and answers unchanged, answers 503 with Retry-After while the server is to fail (the server keeps its cards), forwards again after, and ends with its backend",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)))
    func failsForAMoment() async throws {
        let server = try RadicaleServer(python: try PythonTestTools.python())
        defer { server.stop() }
        var backend: CardDAVBackend? = try CardDAVBackend(
            collection: URL(string: "kit/book/", relativeTo: server.baseURL)!.absoluteURL)
        let collection = try #require(backend).collection
        #expect(backend?.canInjectTransientFailure == false, "no proxy yet: the provider would read the server")
        try backend?.startFailureProxy()
        #expect(backend?.canInjectTransientFailure == true)
        try backend?.reset()
        var ada = ConformanceContact(identifier: "ada")
        ada.givenName = "Ada"
        try backend?.add(ada)
        let proxied = try #require(backend?.providerCollection)
        let port = try #require(proxied.port)
        #expect(port != server.port && proxied.path == collection.path, "\(proxied)")

        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        // The same PROPFIND directly and through the proxy: the same answer.
        let direct = try await Self.send(session, "PROPFIND", collection, depth: "1")
        let forwarded = try await Self.send(session, "PROPFIND", proxied, depth: "1")
        #expect(direct.status == 207 && forwarded.status == 207, "\(direct.status) \(forwarded.status)")
        #expect(forwarded.body == direct.body)
        #expect(String(decoding: forwarded.body, as: UTF8.self).contains("ada.vcf"))
        // A request body goes through whole: a card PUT through the proxy is on the server.
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bob\r\nN:Smith;Bob;;;\r\nFN:Bob Smith\r\nEND:VCARD\r\n"
        let put = try await Self.send(session, "PUT", proxied.appendingPathComponent("bob.vcf"), body: card)
        #expect(put.status == 201, "\(put.status)")
        #expect(try backend?.serverContacts().map(\.identifier) == ["ada", "bob"])

        let description = try #require(try backend?.beginTransientFailure())
        #expect(description.contains("503 Service Unavailable"), "\(description)")
        // On the connection the session keeps open, and on a new one: 503, Retry-After.
        for _ in 0..<2 {
            let refused = try await Self.send(session, "PROPFIND", proxied, depth: "1")
            #expect(
                refused.status == 503 && refused.retryAfter == "1", "\(refused.status) \(refused.retryAfter ?? "-")")
        }
        let refusedPut = try await Self.send(session, "PUT", proxied.appendingPathComponent("eve.vcf"), body: card)
        #expect(refusedPut.status == 503)
        // The server saw none of it and holds every card.
        #expect(try backend?.serverContacts().map(\.identifier) == ["ada", "bob"])

        try backend?.endTransientFailure()
        let again = try await Self.send(session, "PROPFIND", proxied, depth: "1")
        let directAgain = try await Self.send(session, "PROPFIND", collection, depth: "1")
        #expect(again.status == 207 && again.body == directAgain.body)

        #expect(Self.accepts(port: port))
        backend = nil
        #expect(!Self.accepts(port: port), "the proxy's port is closed once its backend has ended")
    }

    @Test("an https server cannot have the proxy in front (it has no TLS of its own): T1 cannot fail it")
    func httpsServer() throws {
        let backend = try CardDAVBackend(argument: "https://dav.example.com/user/book/")
        #expect(throws: CardDAVBackendError.self) { try backend.startFailureProxy() }
        #expect(!backend.canInjectTransientFailure)
        #expect(backend.providerCollection == backend.collection)
        #expect(throws: CardDAVBackendError.self) { try backend.beginTransientFailure() }
    }
}
