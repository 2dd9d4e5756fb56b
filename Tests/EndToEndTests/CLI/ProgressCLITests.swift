import AppGroupStore
import ContactsInterop
import Foundation
import TestSupport
import Testing

@Suite("export shows progress after one second")
struct ExportProgressCLITests {
    @Test(
        "An export whose reader lags says on stderr, once a second, that it is writing N contacts; the document is whole",
        arguments: [[String](), ["--vcard"]])
    func writingProgress(format: [String]) throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["generate", "400", "--seed", "1"], in: group)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: BuiltProducts.path("contacts-host"))
            process.arguments = ["export"] + format
            var environment = group.environment
            environment["CONTACTS_HOST_PROGRESS"] = "1"  // stderr is a pipe here, not a terminal
            process.environment = environment
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try ProcessRunner.runUnblocked(process)
            defer { if process.isRunning { process.terminate() } }
            // Its output (~150-290 KiB) fills the pipe nobody reads yet, so the export blocks writing it
            // and ticks: the progress line is the signal to start reading, not a sleep.
            var stderr = ""
            while !stderr.contains("writing to stdout: ") {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                stderr += String(decoding: chunk, as: UTF8.self)
            }
            let document = output.fileHandleForReading.readDataToEndOfFile()
            stderr += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(stderr)")
            let lines = stderr.split(separator: "\n")
            #expect(lines.first?.hasPrefix("export: ") == true, "\(stderr)")
            #expect(
                lines.contains { $0.hasPrefix("export: writing to stdout: ") && $0.contains(" of 400 contacts… (") },
                "\(stderr)")
            #expect(lines.allSatisfy { $0.hasPrefix("export: ") && $0.hasSuffix(" s)") }, "only progress: \(stderr)")
            let text = String(decoding: document, as: UTF8.self)
            if format.isEmpty {
                let object = try #require(try JSONSerialization.jsonObject(with: document) as? [String: Any])
                #expect((object["contacts"] as? [Any])?.count == 400)
            } else {
                #expect(text.components(separatedBy: "BEGIN:VCARD").count == 401)
                // Encoded card by card for the progress line: the same text as all at once.
                let whole = VCard.encode(try CLIHarness.database(group).all(), version: .v3)
                #expect(text == whole, "the export differs from the whole database encoded at once")
            }
        }
    }
}

@Suite("signal --wait on a slow change enumeration: \"N of M changes\" on stderr")
struct SignalChangesProgressCLITests {
    @Test("A slow change enumeration's progress says \"N of M changes\", M the app database's changes after the anchor")
    func changesOfTotal() throws {
        try withTemporaryAppGroup { group in
            var environment = group.environment
            environment["CONTACTS_HOST_PROGRESS"] = "1"  // stderr is a pipe here, not a terminal
            let host = { (arguments: [String], environment: [String: String]) in
                try HostRunner.process.run(arguments, environment: environment)
            }
            #expect(try host(["add", "--id", "first", "--given-name", "First"], environment).exitCode == 0)
            let provider = BuiltProducts.path("bad-provider")
            let enabled = try host(
                ["enable", "--extension", provider, "--page-size", "2", "--batch-size", "2"], environment)
            #expect(enabled.exitCode == 0, "\(enabled)")
            // The first sync at full speed (no bug), then eight changes for a slow one: 4 batches of 0.4 s.
            #expect(try host(["signal", "--wait"], environment).exitCode == 0)
            _ = try host(["invalidate"], environment)
            #expect(try host(["generate", "8", "--seed", "5"], environment).exitCode == 0)
            var slow = environment
            slow["BAD_PROVIDER_BUG"] = "slow-page"
            slow["BAD_PROVIDER_SLOW_CHANGES"] = "1"
            slow["BAD_PROVIDER_DELAY_SECONDS"] = "0.4"
            let result = try host(["signal", "--wait", "--timeout", "5"], slow)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stdout.contains("8 updated"), "\(result)")
            let progress = result.stderr.split(separator: "\n")
            #expect(!progress.isEmpty, "\(result)")
            #expect(
                progress.allSatisfy {
                    $0.hasPrefix("syncing… change enumeration: ") && $0.contains(" of 8 changes, ")
                        && $0.contains(" so far (")
                }, "\(result)")
            _ = try host(["invalidate"], slow)
        }
    }
}
