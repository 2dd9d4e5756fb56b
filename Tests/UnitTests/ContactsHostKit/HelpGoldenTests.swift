import ContactsHostConformance
import ContactsHostKit
import Foundation
import TestSupport
import Testing

/// Every command's `--help`, and the tool's, against a recorded golden file in `Tests/Fixtures/Help`,
/// so a change to any help text is a diff someone reviews. `CPS_RECORD_GOLDEN=1 swift test --filter
/// HelpGoldenTests` writes the files anew (then `git diff Tests/Fixtures/Help` shows what changed).
@Suite("contacts-host help: golden files, one per command (re-record with CPS_RECORD_GOLDEN=1)")
struct HelpGoldenTests {
    private static var fixtures: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path + "/Fixtures/Help"
    }

    private static var recording: Bool { ProcessInfo.processInfo.environment["CPS_RECORD_GOLDEN"] == "1" }

    /// `system list` → `system-list.txt`; the tool's own help is `contacts-host.txt`.
    static func fileName(_ words: [String]) -> String {
        (words.isEmpty ? "contacts-host" : words.joined(separator: "-")) + ".txt"
    }

    static let cases: [[String]] = [[]] + HostTool.allCommands.map(\.name) + [["system"], ["device"]]

    @Test("The help of each command, each group and the tool equals its golden file", arguments: cases)
    func golden(words: [String]) async throws {
        let result = await HostRunner.inProcess.run(words.isEmpty ? ["--help"] : ["help"] + words)
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let path = Self.fixtures + "/" + Self.fileName(words)
        if Self.recording {
            try FileManager.default.createDirectory(atPath: Self.fixtures, withIntermediateDirectories: true)
            try Data(result.stdout.utf8).write(to: URL(fileURLWithPath: path))
            return
        }
        let recorded = try #require(
            try? String(contentsOfFile: path, encoding: .utf8),
            "no golden file \(path): record it with CPS_RECORD_GOLDEN=1")
        if recorded != result.stdout {
            let have = result.stdout.components(separatedBy: "\n")
            let want = recorded.components(separatedBy: "\n")
            let line =
                zip(have, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(have.count, want.count)
            Issue.record(
                """
                help for '\(words.joined(separator: " "))' differs from \(path) at line \(line + 1):
                  printed: \(line < have.count ? have[line] : "(end)")
                  golden:  \(line < want.count ? want[line] : "(end)")
                re-record with CPS_RECORD_GOLDEN=1 if the change is meant, and review the diff
                """)
        }
    }

    @Test("Every golden file belongs to a command, so a removed command's help does not linger")
    func noStrayGoldenFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures).filter { $0.hasSuffix(".txt") }
        #expect(Set(files) == Set(Self.cases.map(Self.fileName)), "\(files.sorted())")
    }
}
