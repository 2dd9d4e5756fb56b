import ContactProviderConformance
import Foundation
import Glibc
import Testing

/// The kit's CardDAV backend waits for one request as long as the run's time scale says, not a fixed
/// 30 s: a conformance run on a busy machine once failed because a local Radicale took longer to
/// delete an address book.
@Suite struct CardDAVBackendTimeoutTests {
    /// A TCP port on 127.0.0.1 that accepts connections (the kernel completes them from its backlog)
    /// and never answers; closed by `close()`.
    private static func silentServer() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(bound == 0 && listen(fd, 8) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    @Test("a request the server never answers fails after the backend's request timeout")
    func requestTimeoutIsTheBackendsOwn() throws {
        let server = try Self.silentServer()
        defer { close(server.fd) }
        let backend = try CardDAVBackend(
            argument: "http://127.0.0.1:\(server.port)/kit/book/", requestTimeoutSeconds: 1)
        let start = Date()
        #expect(throws: CardDAVBackendError.self) { try backend.reset() }
        let waited = Date().timeIntervalSince(start)
        // At least the timeout, and far from the fixed 30 s it used to be.
        #expect(waited >= 0.9 && waited < 20, "waited \(waited) s")
    }
}
