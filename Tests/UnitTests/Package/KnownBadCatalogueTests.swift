import Foundation
import TestSupport
import Testing

/// Issue 46: the known-bad providers are one executable, `bad-provider`, whose flaws are declared
/// once, in the catalogue `Examples/bad-provider/Flaw.swift` (one `BAD_PROVIDER_BUG` value each).
/// The compiler checks the catalogue makes every flaw; it cannot check that the names the tests,
/// the bench and the documents give `BAD_PROVIDER_BUG` are the catalogue's, or that each flaw is
/// documented and used: these tests do.
@Suite("Known-bad providers: one executable, one catalogue of flaws, each documented and used")
struct KnownBadCatalogueTests {
    static let root = PythonTestTools.repositoryRoot

    /// The catalogue's values, each with the doc comment above its `case`.
    static func catalogue() throws -> [(value: String, doc: String)] {
        let text = try String(contentsOfFile: root + "/Examples/bad-provider/Flaw.swift", encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var flaws: [(value: String, doc: String)] = []
        for (index, line) in lines.enumerated() {
            guard let match = line.firstMatch(of: /^\s*case \w+ = "([\w-]+)"/) else { continue }
            let above = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
            flaws.append((String(match.1), above.hasPrefix("///") ? String(above.dropFirst(3)) : ""))
        }
        return flaws
    }

    /// Every value given to `BAD_PROVIDER_BUG` in the tests, the bench and the documents.
    static func usedValues() throws -> [String: Set<String>] {
        var used: [String: Set<String>] = [:]
        for directory in ["Tests", "Sources", "docs"] {
            let base = root + "/" + directory
            for file in try FileManager.default.subpathsOfDirectory(atPath: base)
            where file.hasSuffix(".swift") || file.hasSuffix(".md") {
                guard file != "UnitTests/Package/KnownBadCatalogueTests.swift" else { continue }
                let text = try String(contentsOfFile: base + "/" + file, encoding: .utf8)
                guard text.contains("BAD_PROVIDER_BUG") else { continue }
                var values: [Substring] = []
                values += text.matches(of: /"BAD_PROVIDER_BUG"\]?\s*[:=]\s*"([\w-]+)"/).map(\.output.1)
                values += text.matches(of: /setenv\("BAD_PROVIDER_BUG", "([\w-]+)"/).map(\.output.1)
                values += text.matches(of: /BAD_PROVIDER_BUG=([\w-]+)/).map(\.output.1)
                // A test's table of flaws: `bug: "repeats-last-item", rule: "C3"`.
                values += text.matches(of: /bug: "([\w-]+)"/).map(\.output.1)
                // A test's arguments: ("field-loss", "F1", …), a flaw and its rule.
                values += text.matches(of: /\("([a-z]+(?:-[a-z]+)+)", "[A-Z]\d+"/).map(\.output.1)
                for value in values { used[String(value), default: []].insert(directory + "/" + file) }
            }
        }
        return used
    }

    @Test("Package.swift declares one known-bad executable, bad-provider")
    func oneExecutable() throws {
        let manifest = try String(contentsOfFile: Self.root + "/Package.swift", encoding: .utf8)
        let executables = manifest.matches(of: /name: "(bad-[\w-]+)"/).map { String($0.output.1) }
        #expect(executables == ["bad-provider"])
        #expect(!manifest.contains("BAD_STORE_BUG"))
    }

    @Test("each flaw of the catalogue has one value and a doc line naming the rule that catches it, or that it passes")
    func documented() throws {
        let flaws = try Self.catalogue()
        // The scan finds the catalogue: its first flaw and its last (the old executables' and BAD_STORE_BUG's).
        #expect(flaws.first?.value == "changing-marker" && flaws.last?.value == "expires-on-read-error", "\(flaws)")
        #expect(Set(flaws.map(\.value)).count == flaws.count)
        for flaw in flaws {
            #expect(
                flaw.doc.contains("caught by") || flaw.doc.contains("fails") || flaw.doc.contains("passes"),
                "\(flaw.value): '\(flaw.doc)'")
        }
    }

    @Test("every value given to BAD_PROVIDER_BUG names a flaw of the catalogue, and every flaw is used")
    func usedValuesAreTheCatalogues() throws {
        let catalogue = Set(try Self.catalogue().map(\.value))
        let used = try Self.usedValues()
        #expect(used["changing-marker"] != nil, "the scan finds the tests' values: \(used.keys.sorted())")
        for (value, files) in used.sorted(by: { $0.key < $1.key }) {
            #expect(catalogue.contains(value), "BAD_PROVIDER_BUG=\(value) (\(files.sorted())) is no flaw of Flaw.swift")
        }
        #expect(
            catalogue.subtracting(used.keys).isEmpty, "flaws no test runs: \(catalogue.subtracting(used.keys).sorted())"
        )
    }
}
