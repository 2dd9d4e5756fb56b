import Foundation
import Glibc

/// One client connection of ``CardDAVFailureProxy``, served on its own thread: each request is
/// forwarded byte for byte to a connection of its own to the server, and every byte the server
/// sends back is passed on as it comes; while the server is to fail, a request is answered with
/// `503` instead and the connection closed.
final class ProxiedConnection {
    private let client: Int32
    private let shared: ProxyShared
    private var upstream: Int32 = -1
    /// Bytes from the client not yet forwarded.
    private var pending: [UInt8] = []
    private var state = State.head

    /// Where in the client's stream the connection is.
    private enum State {
        /// Reading a request's head.
        case head
        /// Forwarding a body: this many bytes are still to come.
        case body(remaining: Int)
        /// Waiting for the whole of a chunked body, then forwarding it.
        case chunked
    }

    init(client: Int32, shared: ProxyShared) {
        self.client = client
        self.shared = shared
    }

    /// Serves the connection until either side closes it, it fails, or the proxy stops.
    func serve() {
        defer {
            close(client)
            if upstream >= 0 { close(upstream) }
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var fds = [
                pollfd(fd: shared.stopReader, events: Int16(POLLIN), revents: 0),
                pollfd(fd: client, events: Int16(POLLIN), revents: 0),
                pollfd(fd: upstream, events: Int16(POLLIN), revents: 0),  // ignored while -1
            ]
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || fds[0].revents != 0 { return }
            if fds[2].revents != 0 {
                // The server's answer, as it comes; the server closing ends the connection.
                let count = recv(upstream, &buffer, buffer.count, 0)
                if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                guard count > 0, ProxySocket.send(client, buffer[0..<count], stop: shared.stopReader) else { return }
            }
            if fds[1].revents != 0 {
                let count = recv(client, &buffer, buffer.count, 0)
                if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                guard count > 0 else { return }
                pending += buffer[0..<count]
                guard forwardWholeParts() else { return }
            }
        }
    }

    /// Forwards what `pending` holds of requests, answering each new request's head with `503` while
    /// the server is to fail; false when the connection is to end.
    private func forwardWholeParts() -> Bool {
        while !pending.isEmpty {
            switch state {
            case .head:
                let head: HTTPRequestHead
                do {
                    guard let parsed = try HTTPRequestHead.parse(pending[...]) else { return true }
                    head = parsed
                } catch {
                    answer(status: error.status, reason: error.reason, body: "the kit's CardDAV proxy: \(error)\n")
                    return false
                }
                if shared.failing.withLock({ $0 }) {
                    shared.refused.withLock { $0 += 1 }
                    answer(
                        status: 503, reason: "Service Unavailable",
                        body:
                            "The server is unavailable for a moment (the conformance kit's rule T1); retry later.\n",
                        extraHeaders: ["Retry-After: 1"])
                    return false
                }
                guard connectUpstream() else {
                    answer(
                        status: 502, reason: "Bad Gateway",
                        body: "the kit's CardDAV proxy could not connect to the server: errno \(errno)\n")
                    return false
                }
                guard forward(count: head.length) else { return false }
                switch head.body {
                case .none: state = .head
                case .length(let count): state = .body(remaining: count)
                case .chunked: state = .chunked
                }
            case .body(let remaining):
                let count = min(remaining, pending.count)
                guard forward(count: count) else { return false }
                state = remaining == count ? .head : .body(remaining: remaining - count)
            case .chunked:
                do {
                    guard let count = try HTTPRequestHead.chunkedBodyLength(pending[...]) else { return true }
                    guard forward(count: count) else { return false }
                    state = .head
                } catch {
                    // Half the request went to the server: the connection cannot go on.
                    return false
                }
            }
        }
        return true
    }

    /// Sends the first `count` pending bytes to the server.
    private func forward(count: Int) -> Bool {
        let sent = ProxySocket.send(upstream, pending[0..<count], stop: shared.stopReader)
        pending.removeFirst(count)
        return sent
    }

    /// Opens the connection to the server, once (a non-blocking connect that watches the stop pipe).
    private func connectUpstream() -> Bool {
        if upstream >= 0 { return true }
        let address = shared.upstream
        let fd = socket(
            address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
            0)
        guard fd >= 0 else { return false }
        let started = address.bytes.withUnsafeBytes {
            connect(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
        }
        if started != 0 {
            guard errno == EINPROGRESS,
                ProxySocket.wait(fd, for: Int16(POLLOUT), stop: shared.stopReader, timeoutMilliseconds: 30_000)
            else {
                close(fd)
                return false
            }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 else {
                close(fd)
                errno = error
                return false
            }
        }
        upstream = fd
        return true
    }

    /// Answers the client with `status` and closes its side (`Connection: close`); the rest of what the
    /// client sends is read and dropped, so the answer is not lost to a reset.
    private func answer(status: Int, reason: String, body: String, extraHeaders: [String] = []) {
        let bodyBytes = Array(body.utf8)
        let head =
            (["HTTP/1.1 \(status) \(reason)"] + extraHeaders + [
                "Content-Type: text/plain; charset=utf-8", "Content-Length: \(bodyBytes.count)", "Connection: close",
            ]).joined(separator: "\r\n") + "\r\n\r\n"
        guard ProxySocket.send(client, Array(head.utf8)[...] + bodyBytes, stop: shared.stopReader) else { return }
        shutdown(client, Int32(SHUT_WR))
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while ProxySocket.wait(client, for: Int16(POLLIN), stop: shared.stopReader, timeoutMilliseconds: 5_000) {
            let count = recv(client, &buffer, buffer.count, 0)
            if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            if count <= 0 { return }
        }
    }
}

/// The proxy's socket calls: every wait also watches the stop pipe, so no thread outlives ``ProxyShared/stop()``.
enum ProxySocket {
    /// Makes `fd` non-blocking.
    static func setNonBlocking(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFL)
        return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0
    }

    /// Sends every byte of `bytes` (never raising SIGPIPE); false when the peer is gone or the proxy stops.
    static func send(_ fd: Int32, _ bytes: ArraySlice<UInt8>, stop: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                sent += count
            } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
                guard wait(fd, for: Int16(POLLOUT), stop: stop, timeoutMilliseconds: 30_000) else { return false }
            } else {
                return false
            }
        }
        return true
    }

    /// Waits until `fd` is ready for `events`; false when the proxy stops or the time runs out first.
    static func wait(_ fd: Int32, for events: Int16, stop: Int32, timeoutMilliseconds: Int32) -> Bool {
        while true {
            var fds = [
                pollfd(fd: stop, events: Int16(POLLIN), revents: 0), pollfd(fd: fd, events: events, revents: 0),
            ]
            let ready = poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            return ready > 0 && fds[0].revents == 0 && fds[1].revents != 0
        }
    }
}
