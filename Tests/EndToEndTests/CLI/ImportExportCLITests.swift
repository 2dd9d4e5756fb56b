import AppGroupStore
import Foundation
import TestSupport
import Testing

/// Reading standard input needs a real process; the rest of import and export runs in process (UnitTests/ContactsHostKit/ImportExportTests.swift).
@Suite("contacts-host import and export, run as the built binary")
struct ImportExportCLITests {
    @Test("import - reads standard input")
    func importStdin() throws {
        try withTemporaryAppGroup { group throws in
            let input = Data(#"[{"identifier":"in1","givenName":"Piped"}]"#.utf8)
            #expect(
                try HostRunner.process.succeed(["import", "-"], in: group, stdin: input)
                    == "imported 1 contact (1 added, 0 updated, 0 skipped)")
            #expect(try CLIHarness.database(group).get("in1")?.givenName == "Piped")
        }
    }

    @Test("A malformed standard input is reported as <stdin>")
    func importMalformedStdin() throws {
        try withTemporaryAppGroup { group in
            let result = try HostRunner.process.run(
                ["import", "-"], in: group, stdin: Data("[{\"identifier\": 1}]".utf8))
            CLIHarness.expectFailure(result, mentioning: ["<stdin>", "line 1"])
            #expect(try CLIHarness.database(group).all().isEmpty)
        }
    }
}
