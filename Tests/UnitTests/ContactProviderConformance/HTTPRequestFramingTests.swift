import Foundation
import Testing

@testable import ContactProviderConformance

/// The kit's CardDAV proxy forwards requests byte for byte and reads only where each one ends
/// (issue 43, item 10: T1 over CardDAV answers a whole request with 503, never half of one).
@Suite("CardDAV failure proxy: where a request ends")
struct HTTPRequestFramingTests {
    static func bytes(_ text: String) -> ArraySlice<UInt8> { Array(text.utf8)[...] }

    @Test("a head without a body ends at its empty line; an unfinished head is not yet a request")
    func headOnly() throws {
        let text = "GET /book/ HTTP/1.1\r\nHost: x\r\n\r\nNEXT"
        let head = try #require(try HTTPRequestHead.parse(Self.bytes(text)))
        #expect(head == HTTPRequestHead(length: text.utf8.count - 4, method: "GET", target: "/book/", body: .none))
        #expect(try HTTPRequestHead.parse(Self.bytes("GET /book/ HTTP/1.1\r\nHost: x\r\n")) == nil)
    }

    @Test("Content-Length gives the body's length, in any case of the header's name; 0 is no body")
    func contentLength() throws {
        let head = try #require(
            try HTTPRequestHead.parse(Self.bytes("REPORT /b/ HTTP/1.1\r\ncontent-LENGTH: 12\r\nDepth: 1\r\n\r\n")))
        #expect(head.method == "REPORT" && head.body == .length(12))
        let empty = try #require(try HTTPRequestHead.parse(Self.bytes("PUT /a HTTP/1.1\r\nContent-Length: 0\r\n\r\n")))
        #expect(empty.body == .none)
    }

    @Test("chunked wins over Content-Length, and its body ends after the last chunk and the trailer")
    func chunked() throws {
        let head = try #require(
            try HTTPRequestHead.parse(
                Self.bytes("PUT /a HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n")))
        #expect(head.body == .chunked)
        let body = "5\r\nhello\r\n3;ext=1\r\nabc\r\n0\r\nX-Trailer: y\r\n\r\n"
        #expect(try HTTPRequestHead.chunkedBodyLength(Self.bytes(body + "GET")) == body.utf8.count)
        // Every prefix is still incomplete.
        for cut in 0..<body.utf8.count {
            #expect(try HTTPRequestHead.chunkedBodyLength(Array(body.utf8)[..<cut]) == nil, "cut at \(cut)")
        }
        #expect(throws: HTTPFramingError.self) { try HTTPRequestHead.chunkedBodyLength(Self.bytes("zz\r\n")) }
    }

    @Test("a body whose length cannot be known, a request line that is not HTTP/1.x or a head over 64 KiB is refused")
    func refused() {
        #expect(throws: HTTPFramingError(status: 400, "a Content-Length that is not one number: [\"3\", \"4\"]")) {
            try HTTPRequestHead.parse(Self.bytes("PUT /a HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n"))
        }
        #expect(throws: HTTPFramingError.self) {
            try HTTPRequestHead.parse(Self.bytes("PUT /a HTTP/1.1\r\nContent-Length: -1\r\n\r\n"))
        }
        #expect(throws: HTTPFramingError.self) { try HTTPRequestHead.parse(Self.bytes("PRI * HTTP/2.0\r\n\r\n")) }
        #expect(throws: HTTPFramingError.self) {
            try HTTPRequestHead.parse(Self.bytes("PUT /a HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n"))
        }
        let long = "GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: HTTPRequestHead.maximumLength)
        #expect(throws: HTTPFramingError.self) { try HTTPRequestHead.parse(Self.bytes(long)) }
    }
}
