import Foundation
import TestSupport
import Testing

/// `contacts-host carddav configure` and `contacts-host demo carddav`.
@Suite("CLI: carddav configure and demo carddav")
struct CardDAVCommandTests {
    @Test("carddav configure writes carddav.json (0600) naming the password file, never the password")
    func configureWritesFile() throws {
        try withTemporaryAppGroup { group in
            let passwordFile = group.path + "/pw"
            _ = FileManager.default.createFile(
                atPath: passwordFile, contents: Data("hunter2\n".utf8), attributes: [.posixPermissions: 0o600])
            let result = try host(
                [
                    "carddav", "configure", "--url", "https://dav.example.com/me/book", "--username", "me",
                    "--password-file", passwordFile,
                ], in: group)
            #expect(result.stdout.contains("carddav.json"))
            #expect(!result.stdout.contains("hunter2") && !result.stderr.contains("hunter2"))
            let path = group.path + "/carddav.json"
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
                    as? [String: String])
            #expect(
                object == ["url": "https://dav.example.com/me/book/", "username": "me", "passwordFile": passwordFile])
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
        }
    }

    @Test(
        "carddav configure refuses a missing or non-http URL and a password file without a user (exit 2)",
        arguments: [
            [String](), ["--url", "ftp://example.com/book/"],
            ["--url", "https://example.com/b/", "--password-file", "/etc/hostname"],
        ])
    func configureUsageErrors(extra: [String]) throws {
        try withTemporaryAppGroup { group in
            let result = try host(["carddav", "configure"] + extra, in: group, expect: 2)
            #expect(result.stderr.contains("carddav configure"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: group.path + "/carddav.json"))
        }
    }

    @Test(
        "demo carddav adds, edits and deletes on a Radicale it starts; the system matches after each sync",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)))
    func demo() throws {
        try withTemporaryAppGroup { group in
            let result = try host(["demo", "carddav", "--python", try PythonTestTools.python()], in: group)
            #expect(
                result.stdout.components(separatedBy: "✓ the system store equals the server's address book").count == 3,
                "\(result)")
            #expect(result.stdout.contains("Ada King") && result.stdout.contains("Dan Brown"))
            #expect(result.stdout.contains("didDelete(1 item: bob)"))
            #expect(group.providerPID() == nil, "the demo stops the provider")
        }
    }
}
