import Foundation
import TestSupport
import Testing

/// Issue 26, item 10: a server that refuses the sync token — with RFC 6578's precondition, or as
/// some servers do, 410 Gone, 412 or a bare 403 — makes the provider expire its anchor; the system
/// lists the collection afresh and ends equal to the server, and later signals keep working. The
/// refusals come from a small proxy (Scripts/refusing_carddav_proxy.py) in front of a real Radicale.
@Suite("End to end: the CardDAV provider recovers from a refused sync token")
struct RefusedSyncTokenTests {
    @Test(
        "a refused sync token is an expired anchor: the system re-lists the collection and equals the server",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)),
        arguments: ["410", "403", "403-token", "412"])
    func refusedToken(refusal: String) async throws {
        try await withCardDAVFixture { fixture in
            let control = fixture.group.path + "/refuse"
            // The proxy prints its port into a FIFO: the read returns when it is listening.
            let portPipe = fixture.group.path + "/proxy-port"
            #expect(mkfifo(portPipe, 0o600) == 0)
            let proxy = try SpawnedProcess(
                [
                    try PythonTestTools.python(), PythonTestTools.repositoryRoot + "/Scripts/refusing_carddav_proxy.py",
                    fixture.server.baseURL.absoluteString, control,
                ], stdout: portPipe)
            defer { proxy.kill() }
            let port = try #require(Self.firstLine(of: portPipe), "the proxy printed no port")
            let collection = "http://127.0.0.1:\(port)/tester/contacts/"
            try host(["carddav", "configure", "--url", collection], in: fixture.group)

            try await fixture.book.put(CardDAVSyncTests.ada)
            try await fixture.book.put(CardDAVSyncTests.bob)
            #expect(try fixture.signal()["enumeration"] as? String == "content")

            // The server forgets the token (the proxy refuses it once) while cards change.
            try refusal.write(toFile: control, atomically: true, encoding: .utf8)
            try await fixture.book.put(CardDAVSyncTests.cleo)
            try await fixture.book.delete(CardDAVSyncTests.bob.resource)
            let recovered = try fixture.signal()
            #expect(!FileManager.default.fileExists(atPath: control), "the proxy never refused the token")
            #expect(recovered["error"] == nil || recovered["error"] is NSNull, "\(recovered)")
            try expectSystem(fixture, holds: [CardDAVSyncTests.ada, CardDAVSyncTests.cleo])

            // And the next change arrives by the ordinary path.
            var ada = CardDAVSyncTests.ada
            ada.family = "King"
            try await fixture.book.put(ada)
            #expect(try fixture.signal()["enumeration"] as? String == "changes")
            try expectSystem(fixture, holds: [ada, CardDAVSyncTests.cleo])
        }
    }

    /// The first line written into the FIFO at `path` (nil at end of file before a newline).
    static func firstLine(of path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1 {
            if byte == 0x0A { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return nil
    }
}
