import Contacts
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 23, item 3: an app-side writer that saves atomically with `FileManager.replaceItemAt`, in a
/// file that imports `Contacts` (as shared app/extension model code does), keeps working after its
/// first save, and the provider syncs each version. Linux Foundation's own method throws "The file
/// doesn't exist" and removes the target.
@Suite("Porting: FileManager.replaceItemAt works for files importing the Apple-shaped modules")
struct ReplaceItemTests {
    /// The atomic save real model code writes: a temp file, then replaceItemAt (moveItem the first time).
    private func save(_ text: String, to url: URL) throws {
        let temp = url.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).tmp")
        try Data(text.utf8).write(to: temp)
        if FileManager.default.fileExists(atPath: url.path) {
            let result = try FileManager.default.replaceItemAt(url, withItemAt: temp)
            #expect(result?.standardizedFileURL == url.standardizedFileURL)
        } else {
            try FileManager.default.moveItem(at: temp, to: url)
        }
    }

    @Test("three saves in a row: each replaces the file, nothing is left beside it")
    func repeatedSaves() throws {
        try withTemporaryAppGroup { group in
            let url = URL(fileURLWithPath: group.path + "/ContactItems.json")
            for version in 1...3 {
                try save("version \(version)", to: url)
                #expect(try String(contentsOf: url, encoding: .utf8) == "version \(version)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: group.path) == ["ContactItems.json"])
        }
    }

    @Test("a backup name keeps the original until the swap, and for good with .withoutDeletingBackupItem")
    func backupItem() throws {
        try withTemporaryAppGroup { group in
            let url = URL(fileURLWithPath: group.path + "/book.json")
            try Data("old".utf8).write(to: url)
            let new = URL(fileURLWithPath: group.path + "/new.json")
            try Data("new".utf8).write(to: new)
            try FileManager.default.replaceItemAt(
                url, withItemAt: new, backupItemName: "book.json.bak", options: .withoutDeletingBackupItem)
            #expect(try String(contentsOf: url, encoding: .utf8) == "new")
            #expect(try String(contentsOfFile: group.path + "/book.json.bak", encoding: .utf8) == "old")
            #expect(!FileManager.default.fileExists(atPath: new.path))
            try Data("newer".utf8).write(to: new)
            try FileManager.default.replaceItemAt(url, withItemAt: new, backupItemName: "book.json.bak2")
            #expect(try String(contentsOf: url, encoding: .utf8) == "newer")
            #expect(!FileManager.default.fileExists(atPath: group.path + "/book.json.bak2"))
        }
    }

    @Test("a missing replacement is Foundation's error (fileNoSuchFile), and the original stays")
    func missingReplacement() throws {
        try withTemporaryAppGroup { group in
            let url = URL(fileURLWithPath: group.path + "/book.json")
            try Data("kept".utf8).write(to: url)
            #expect(throws: CocoaError.self) {
                try FileManager.default.replaceItemAt(url, withItemAt: URL(fileURLWithPath: group.path + "/nope"))
            }
            #expect(try String(contentsOf: url, encoding: .utf8) == "kept")
        }
    }

    @Test("why the overloads exist: Foundation's own method (reached with backupItemName: nil) still fails here")
    func foundationStillBroken() throws {
        try withTemporaryAppGroup { group in
            let url = URL(fileURLWithPath: group.path + "/book.json")
            try Data("old".utf8).write(to: url)
            let new = URL(fileURLWithPath: group.path + "/new.json")
            try Data("new".utf8).write(to: new)
            // When this stops throwing, the toolchain has the upstream fix and the overloads can go.
            #expect(throws: (any Error).self) {
                try FileManager.default.replaceItemAt(url, withItemAt: new, backupItemName: nil, options: [])
            }
        }
    }

    /// The seed app's `ContactItems.json` entry (what the template provider reads).
    struct ContactItemJSON: Codable {
        var identifier: String
        var firstName: String
        var lastName: String
    }

    @Test("the app saves ContactItems.json with replaceItemAt between syncs; the template provider syncs each version")
    func appWriterSyncs() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(
                ["enable", "--extension", BuiltProducts.path("template-provider")], in: group)
            defer { _ = try? HostRunner.process.run(["disable"], in: group) }
            let url = URL(fileURLWithPath: group.path + "/ContactItems.json")
            let versions: [[String]] = [["ada", "alan"], ["ada", "alan", "grace"], ["grace"]]
            for identifiers in versions {
                let items = identifiers.map {
                    ContactItemJSON(identifier: $0, firstName: $0.capitalized, lastName: "X")
                }
                let temp = group.path + "/.ContactItems-\(UUID().uuidString).json"
                try JSONEncoder().encode(items).write(to: URL(fileURLWithPath: temp))
                if FileManager.default.fileExists(atPath: url.path) {
                    try FileManager.default.replaceItemAt(url, withItemAt: URL(fileURLWithPath: temp))
                } else {
                    try FileManager.default.moveItem(at: URL(fileURLWithPath: temp), to: url)
                }
                try HostRunner.process.succeed(["signal", "--wait"], in: group)
                let system = try CLIHarness.contacts(
                    try HostRunner.process.succeed(["system", "list", "--json"], in: group))
                #expect(system.map(\.identifier).sorted() == identifiers, "after saving \(identifiers)")
            }
        }
    }
}
