import Foundation
import Glibc
import Synchronization

/// A forwarding HTTP proxy on 127.0.0.1 that the kit puts between the provider and a CardDAV server,
/// so the server can fail for a moment (rule T1, issue 43 item 10).
///
/// Nobody can make a real server fail a read from outside; a server a provider meets on a device
/// does fail for a moment — it restarts, is overloaded, sits behind a gateway that times out — and
/// answers `503 Service Unavailable` with `Retry-After`. The provider is pointed at this proxy (its
/// `carddav.json` names the proxy's port and the address book's path), which forwards each request
/// and the server's answer byte for byte, on the connection the provider opened; between
/// ``beginFailure()`` and ``endFailure()`` it answers every request instead with
/// `503 Service Unavailable`, `Retry-After: 1` and `Connection: close`, and the server sees nothing
/// of it. The kit's own edits go to the server directly.
///
/// It reads only where each request ends (``HTTPRequestHead``); an answer is passed on as it comes.
/// Like the clients a provider uses (URLSession, libcurl), it expects a client to send its next
/// request on a connection once the answer to the last one has arrived (no HTTP pipelining): a `503`
/// goes out only at a request's head, when no answer is on its way. Plain `http:` only: it has no
/// TLS of its own, so it cannot stand in front of an `https:` server.
///
/// Each connection is served on a thread of its own, and one thread accepts; ``stop()`` (or the
/// proxy's end) ends them all and closes every socket.
final class CardDAVFailureProxy: Sendable {
    /// The port it listens on, on 127.0.0.1.
    let port: Int
    private let shared: ProxyShared

    /// Starts a proxy in front of the server at `host`:`port` (resolved now, once).
    ///
    /// - Throws: ``CardDAVBackendError`` when the host cannot be resolved or no socket can be made.
    init(upstreamHost host: String, upstreamPort: Int) throws {
        let upstream = try UpstreamAddress(host: host, port: upstreamPort)
        let listener = try Self.listen()
        var stopPipe: [Int32] = [-1, -1]
        // Glibc's pipe2 is not visible to Swift: close-on-exec is set right after.
        guard pipe(&stopPipe) == 0, fcntl(stopPipe[0], F_SETFD, FD_CLOEXEC) == 0,
            fcntl(stopPipe[1], F_SETFD, FD_CLOEXEC) == 0
        else {
            close(listener.fd)
            throw CardDAVBackendError("the kit's CardDAV proxy could not make a pipe: errno \(errno)")
        }
        port = listener.port
        shared = ProxyShared(
            listener: listener.fd, upstream: upstream, stopReader: stopPipe[0], stopWriter: stopPipe[1])
        let shared = self.shared
        shared.threads.enter()
        Thread {
            defer { shared.threads.leave() }
            shared.acceptConnections()
        }.start()
    }

    deinit { shared.stop() }

    /// From now on, every request's head is answered with `503` (requests already forwarded get
    /// the server's answer).
    func beginFailure() { shared.failing.withLock { $0 = true } }

    /// From now on, requests are forwarded again.
    func endFailure() { shared.failing.withLock { $0 = false } }

    /// How many requests were answered with `503` so far.
    var refusedRequests: Int { shared.refused.withLock { $0 } }

    /// Ends every thread of the proxy and closes its sockets (a second call does nothing).
    func stop() { shared.stop() }

    /// A listening socket on 127.0.0.1 with a free port.
    private static func listen() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw CardDAVBackendError("the kit's CardDAV proxy could not make a socket: errno \(errno)")
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0, Glibc.listen(fd, 64) == 0, ProxySocket.setNonBlocking(fd) else {
            let error = errno
            close(fd)
            throw CardDAVBackendError("the kit's CardDAV proxy could not listen on 127.0.0.1: errno \(error)")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// What the proxy's threads share: the sockets every thread watches, whether the server is failing,
/// and the threads themselves (to wait for them at the end).
final class ProxyShared: Sendable {
    let listener: Int32
    let upstream: UpstreamAddress
    /// Readable once the proxy stops: every thread polls it beside its own sockets.
    let stopReader: Int32
    private let stopWriter: Int32
    let failing = Mutex(false)
    let refused = Mutex(0)
    let threads = DispatchGroup()
    private let stopped = Mutex(false)

    init(listener: Int32, upstream: UpstreamAddress, stopReader: Int32, stopWriter: Int32) {
        self.listener = listener
        self.upstream = upstream
        self.stopReader = stopReader
        self.stopWriter = stopWriter
    }

    /// The accepting thread: one ``ProxiedConnection`` thread per connection, until the proxy stops.
    func acceptConnections() {
        while true {
            var fds = [
                pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopReader, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || fds[1].revents != 0 { return }
            // Glibc's accept4 is not visible to Swift: the flags are set right after accept.
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }  // EAGAIN, ECONNABORTED: the next one
            guard fcntl(client, F_SETFD, FD_CLOEXEC) == 0, ProxySocket.setNonBlocking(client) else {
                close(client)
                continue
            }
            threads.enter()
            Thread { [self] in
                defer { threads.leave() }
                ProxiedConnection(client: client, shared: self).serve()
            }.start()
        }
    }

    /// Wakes every thread, waits for them, and closes the listener and the pipe.
    func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(stopWriter, &byte, 1)
        // Every wait of a thread watches the pipe, so they end at once; a thread that did not within
        // the time keeps the descriptors it may still use (never closed under it).
        guard threads.wait(timeout: .now() + 10) == .success else { return }
        close(listener)
        close(stopReader)
        close(stopWriter)
    }
}

/// The server's address, resolved once when the proxy starts (so no thread waits on a resolver).
struct UpstreamAddress: Sendable {
    let family: Int32
    let bytes: [UInt8]

    init(host: String, port: Int) throws {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, let first = result else {
            let reason = status == 0 ? "no address" : String(cString: gai_strerror(status))
            throw CardDAVBackendError("the kit's CardDAV proxy cannot resolve the server \(host): \(reason)")
        }
        defer { freeaddrinfo(result) }
        family = first.pointee.ai_family
        bytes = Array(
            UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
    }
}
