import Foundation

/// Where one HTTP/1.1 request ends in a stream of bytes (RFC 9112 §6): its head at the first empty
/// line, then its body of `Content-Length` bytes, or chunks up to the last one and its trailer
/// (`Transfer-Encoding: chunked`), or none.
///
/// The kit's CardDAV proxy (``CardDAVFailureProxy``) forwards requests byte for byte; it reads only
/// this much of them, to answer a whole request, and only a whole one, with `503` while the server is
/// to fail.
struct HTTPRequestHead: Equatable {
    /// What follows the head.
    enum Body: Equatable {
        /// Nothing (no `Content-Length`, or `0`).
        case none
        /// Exactly this many bytes.
        case length(Int)
        /// Chunks, up to the last (zero-size) one and the trailer after it.
        case chunked
    }

    /// The head's bytes, through its empty line.
    var length: Int
    /// `PUT`, `REPORT`, …
    var method: String
    /// The request target (`/user/book/`).
    var target: String
    var body: Body

    /// The longest head the proxy reads (a longer one is refused with `431`).
    static let maximumLength = 64 * 1024

    /// The head at the start of `bytes`: nil while its empty line has not arrived.
    ///
    /// - Throws: ``HTTPFramingError`` for a head that is not HTTP/1.x, too long, or whose body's
    ///   length cannot be known (a malformed or conflicting `Content-Length`).
    static func parse(_ bytes: ArraySlice<UInt8>) throws(HTTPFramingError) -> HTTPRequestHead? {
        guard let end = endOfHead(bytes) else {
            if bytes.count > maximumLength { throw HTTPFramingError(status: 431, "the request head is over 64 KiB") }
            return nil
        }
        let text = String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        // A client may send empty lines before a request (RFC 9112 §2.2).
        while lines.first == "" { lines.removeFirst() }
        let requestLine = (lines.first ?? "").split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else {
            throw HTTPFramingError(status: 400, "not an HTTP/1.x request line: '\(lines.first ?? "")'")
        }
        var contentLengths: Set<String> = []
        var chunked = false
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else {
                throw HTTPFramingError(status: 400, "a header line without a colon: '\(line)'")
            }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" {
                for part in value.split(separator: ",") {
                    contentLengths.insert(part.trimmingCharacters(in: .whitespaces))
                }
            } else if name == "transfer-encoding" {
                chunked =
                    value.lowercased().split(separator: ",").last?.trimmingCharacters(in: .whitespaces) == "chunked"
                if !chunked { throw HTTPFramingError(status: 501, "a transfer coding other than chunked: '\(value)'") }
            }
        }
        let body: Body
        if chunked {
            body = .chunked
        } else if contentLengths.isEmpty {
            body = .none
        } else {
            guard contentLengths.count == 1, let value = contentLengths.first, let count = Int(value), count >= 0,
                value.allSatisfy(\.isASCII)
            else {
                throw HTTPFramingError(
                    status: 400, "a Content-Length that is not one number: \(contentLengths.sorted())")
            }
            body = count == 0 ? .none : .length(count)
        }
        return HTTPRequestHead(
            length: end + 4 - bytes.startIndex, method: String(requestLine[0]), target: String(requestLine[1]),
            body: body)
    }

    /// The index of the head's empty line (`\r\n\r\n`), nil before it arrives.
    private static func endOfHead(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = bytes.startIndex
        while index + 3 < bytes.endIndex {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }

    /// The length of the whole chunked body at the start of `bytes` (every chunk, the last one and the
    /// trailer); nil while it has not all arrived.
    ///
    /// - Throws: ``HTTPFramingError`` for a chunk size that is not hexadecimal.
    static func chunkedBodyLength(_ bytes: ArraySlice<UInt8>) throws(HTTPFramingError) -> Int? {
        var index = bytes.startIndex
        while true {
            guard let lineEnd = endOfLine(bytes, from: index) else { return nil }
            let line = String(decoding: bytes[index..<lineEnd], as: UTF8.self)
            let sizeText = line.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
            guard let size = Int(sizeText, radix: 16), size >= 0 else {
                throw HTTPFramingError(status: 400, "a chunk size that is not hexadecimal: '\(line)'")
            }
            index = lineEnd + 2
            if size == 0 { break }
            // The chunk's data and the line end after it.
            guard bytes.endIndex - index >= size + 2 else { return nil }
            index += size + 2
        }
        // The trailer: header lines up to an empty one.
        while true {
            guard let lineEnd = endOfLine(bytes, from: index) else { return nil }
            let empty = lineEnd == index
            index = lineEnd + 2
            if empty { return index - bytes.startIndex }
        }
    }

    /// The index of the next `\r\n` at or after `start`.
    private static func endOfLine(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.endIndex {
            if bytes[index] == 13, bytes[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }
}

/// A request the proxy cannot frame: answered with `status` and the connection closed.
struct HTTPFramingError: Error, Equatable, CustomStringConvertible {
    /// The HTTP status the proxy answers with (400, 431, 501).
    var status: Int
    var description: String

    /// The reason phrase of ``status``.
    var reason: String {
        switch status {
        case 431: return "Request Header Fields Too Large"
        case 501: return "Not Implemented"
        default: return "Bad Request"
        }
    }

    init(status: Int, _ description: String) {
        self.status = status
        self.description = description
    }
}
