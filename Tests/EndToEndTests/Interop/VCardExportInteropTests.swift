import Foundation
import TestSupport
import Testing

/// `contacts-host export --vcard`, re-imported into a second App Group.
@Suite("Interop: vCard export round trips through the built contacts-host")
struct VCardExportInteropTests {
    /// Fills `group` with contacts that stress the codec: every field, escapes, custom labels, no year.
    private func seed(_ group: TemporaryAppGroup) throws {
        let path = try InteropFixtures.write(
            InteropFixtures.crlf(VCardImportInteropTests.appleCard()), named: "seed.vcf", in: group)
        try host(["import", path], in: group)
        try host(
            [
                "add", "--id", "tricky", "--given-name", "Zoë", "--family-name", "O'Brien; Jr",
                "--organization", "A, B & C", "--department", "Dept;X", "--job-title", "CEO", "--nickname", "Zo",
                "--phone", "work=+1 555 0100", "--phone", "Studio=123 456", "--email", "icloud=zoe@icloud.com",
                "--url", "homepage=https://x.example/a?b=c,d", "--note", "multi\nline; note, with \\ backslash: yes",
                "--birthday", "1990-02-03",
            ], in: group)
        try host(["add", "--id", "org-only", "--organization", "Only An Organization"], in: group)
        try host(
            ["add", "--id", "emoji", "--given-name", "名前", "--family-name", "😀", "--birthday", "--12-31"], in: group)
    }

    @Test(
        "export --vcard (3.0 and 4.0) → import into another App Group gives the same list --json",
        arguments: [
            [] as [String], ["--version", "3.0"], ["--version", "4.0"],
        ])
    func roundTrip(_ versionArguments: [String]) throws {
        try withTemporaryAppGroup { source in
            try seed(source)
            let original = try host(["list", "--json"], in: source)
            #expect(try jsonArray(original).count == 4)

            let exported = try host(["export", "--vcard"] + versionArguments, in: source)
            #expect(exported.stderr.isEmpty, "\(exported)")
            let version = versionArguments.last ?? "3.0"
            #expect(exported.stdout.hasPrefix("BEGIN:VCARD\r\nVERSION:\(version)\r\n"), "\(exported.stdout.prefix(80))")
            #expect(exported.stdout.components(separatedBy: "BEGIN:VCARD").count - 1 == 4)
            #expect(exported.stdout.components(separatedBy: "\r\nVERSION:\(version)\r\n").count - 1 == 4)

            try withTemporaryAppGroup { target in
                let file = try InteropFixtures.write(exported.stdout, named: "export.vcf", in: target)
                let imported = try host(["import", file], in: target)
                #expect(imported.stdout == InteropFixtures.summary(4, added: 4, updated: 0, skipped: 0) + "\n")
                #expect(imported.stderr.isEmpty, "\(imported)")

                let copy = try host(["list", "--json"], in: target)
                #expect(
                    try InteropFixtures.canonicalJSON(copy.stdout) == InteropFixtures.canonicalJSON(original.stdout))
                #expect(try contactsByID(copy) == contactsByID(original))
            }
        }
    }

    @Test("export through a pipe: import - of export --vcard --version 4.0 gives the same list --json")
    func roundTripThroughStdin() throws {
        try withTemporaryAppGroup { source in
            try seed(source)
            let exported = try host(["export", "--vcard", "--version", "4.0"], in: source)
            try withTemporaryAppGroup { target throws in
                #expect(
                    try host(["import", "-"], in: target, stdin: Data(exported.stdout.utf8)).stdout
                        == InteropFixtures.summary(4, added: 4, updated: 0, skipped: 0) + "\n")
                #expect(
                    try InteropFixtures.canonicalJSON(try host(["list", "--json"], in: target).stdout)
                        == InteropFixtures.canonicalJSON(try host(["list", "--json"], in: source).stdout))
            }
        }
    }

    @Test(
        "export --version without --vcard, or an unknown version, is a usage error (exit 2)",
        arguments: [
            ["export", "--version", "4.0"], ["export", "--vcard", "--version", "5.0"],
            ["export", "--vcard", "--version", "2.1"],
            ["export", "--json", "--vcard"],
        ])
    func exportUsageErrors(_ arguments: [String]) throws {
        try withTemporaryAppGroup { group in
            try host(["add", "--id", "x", "--given-name", "X"], in: group)
            let result = try HostRunner.process.run(arguments, in: group)
            CLIHarness.expectUsageError(result)
        }
    }

    @Test(
        "export --vcard ends every line with CRLF (RFC 2426 / RFC 6350), the last one too", arguments: ["3.0", "4.0"])
    func exportLineEndings(_ version: String) throws {
        try withTemporaryAppGroup { group in
            try host(["add", "--id", "one", "--given-name", "One", "--note", "two\nlines"], in: group)
            try host(["add", "--id", "two", "--given-name", "Two"], in: group)
            let bytes = Array(try host(["export", "--vcard", "--version", version], in: group).stdout.utf8)
            let newlines = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }
            #expect(newlines.count >= 10)
            #expect(newlines.last == bytes.count - 1, "the output ends with a line break")
            let bare = newlines.filter { $0 == 0 || bytes[$0 - 1] != UInt8(ascii: "\r") }
            #expect(
                bare.allSatisfy { $0 == bytes.count - 1 },
                "only the final line break may be a bare LF (known issue below)")
            #expect(bare.isEmpty, "lines ending in a bare LF at byte offsets \(bare)")
        }
    }

    @Test("export --vcard of an empty database prints nothing but succeeds")
    func exportEmpty() throws {
        try withTemporaryAppGroup { group in
            let result = try host(["export", "--vcard"], in: group)
            #expect(!result.stdout.contains("BEGIN:VCARD"), "\(result)")
            #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(result)")
        }
    }
}
