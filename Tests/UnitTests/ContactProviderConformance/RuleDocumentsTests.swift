import ContactProviderConformance
import Foundation
import TestSupport
import Testing

/// The rules are declared once, as values; the documents that list them are checked against them.
@Suite(
    "Rules as values: FRAMEWORK-RULES.md and the kit's rule table (docs/conformance-kit.md) agree with the declared rules"
)
struct RuleDocumentsTests {
    private static var packageRoot: String {
        PythonTestTools.repositoryRoot
    }

    private static func document(_ name: String) throws -> String {
        try String(contentsOfFile: packageRoot + "/" + name, encoding: .utf8)
    }

    /// `R19, R21` or `R32–R35` → the rule ids, ranges expanded.
    static func frameworkIDs(in text: String) -> [String] {
        var ids: [String] = []
        let pattern = try! NSRegularExpression(pattern: #"R(\d+)(?:–R(\d+))?"#)
        let range = NSRange(text.startIndex..., in: text)
        for match in pattern.matches(in: text, range: range) {
            let first = Int((text as NSString).substring(with: match.range(at: 1)))!
            let last =
                match.range(at: 2).location == NSNotFound
                ? first : Int((text as NSString).substring(with: match.range(at: 2)))!
            ids.append(contentsOf: (first...max(first, last)).map { "R\($0)" })
        }
        return ids
    }

    @Test("R1–R47 are declared once each, and every kit rule refers to declared framework rules")
    func declaredOnce() throws {
        #expect(FrameworkRule.all.map(\.id) == (1...47).map { "R\($0)" })
        #expect(Set(ConformanceRule.all.map(\.id)).count == ConformanceRule.all.count)
        for rule in ConformanceRule.all {
            #expect(!rule.references.isEmpty, "\(rule.id) refers to no framework rule")
            // The references are values, so the compiler checks they are declared; their JSON
            // spelling (ids) is not checked by it: it reads back as the same rule.
            let json = try JSONEncoder().encode(rule)
            let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
            #expect(object?["references"] as? [String] == rule.references.map(\.id), "\(rule.id)")
            #expect(try JSONDecoder().decode(ConformanceRule.self, from: json) == rule, "\(rule.id)")
        }
        #expect(FrameworkRule.named("r23") == .r23)
        #expect(FrameworkRule.r23.markdown.hasPrefix("- **R23** [Sample] Generation-marker rules for pages:\n  - (a)"))
    }

    @Test("FRAMEWORK-RULES.md lists exactly the declared framework rules, text for text")
    func frameworkRulesDocument() throws {
        let text = try Self.document("FRAMEWORK-RULES.md")
        let start = try #require(text.range(of: "\n### "), "FRAMEWORK-RULES.md has no section heading")
        let listed = String(text[text.index(after: start.lowerBound)...])
        let expected = FrameworkRule.documentMarkdown
        if listed != expected {
            let have = listed.components(separatedBy: "\n")
            let want = expected.components(separatedBy: "\n")
            let line =
                zip(have, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(have.count, want.count)
            Issue.record(
                """
                FRAMEWORK-RULES.md differs from FrameworkRule.all at its rule-list line \(line + 1):
                  document: \(line < have.count ? have[line] : "(end)")
                  declared: \(line < want.count ? want[line] : "(end)")
                """)
        }
    }

    /// Every Markdown document a reader may follow: the README, `docs/`, FRAMEWORK-RULES.md and the DocC articles.
    static func markdownDocuments() throws -> [String] {
        let fileManager = FileManager.default
        var names = ["README.md", "FRAMEWORK-RULES.md"]
        names += try fileManager.contentsOfDirectory(atPath: packageRoot + "/docs").filter { $0.hasSuffix(".md") }
            .sorted().map { "docs/" + $0 }
        for module in try fileManager.contentsOfDirectory(atPath: packageRoot + "/Sources").sorted() {
            let catalog = "Sources/\(module)/\(module).docc"
            guard let articles = try? fileManager.contentsOfDirectory(atPath: packageRoot + "/" + catalog) else {
                continue
            }
            names += articles.filter { $0.hasSuffix(".md") }.sorted().map { catalog + "/" + $0 }
        }
        return names
    }

    @Test(
        "The kit's rule table (docs/conformance-kit.md) has every rule once, with its level, its title and its framework rules"
    )
    func readmeKitTable() throws {
        let readme = try Self.document("docs/conformance-kit.md")
        let row = try NSRegularExpression(
            pattern: #"^\| ([A-Z]\d+) \| (MUST|SHOULD) \| (.+) \| (R[^|]+) \|$"#, options: [.anchorsMatchLines])
        var seen: [String] = []
        for match in row.matches(in: readme, range: NSRange(readme.startIndex..., in: readme)) {
            let cell = { (index: Int) in (readme as NSString).substring(with: match.range(at: index)) }
            let id = cell(1)
            seen.append(id)
            guard let rule = ConformanceRule.named(id) else {
                Issue.record("the rule table lists \(id), which the kit does not declare")
                continue
            }
            #expect(cell(2) == rule.level.rawValue, "\(id): level in the rule table")
            let text = cell(3).replacingOccurrences(of: "`", with: "")
            #expect(
                text.hasPrefix(rule.title),
                "\(id): the table's text should start with the title \"\(rule.title)\": \(text)")
            #expect(
                Self.frameworkIDs(in: cell(4)) == rule.references.map(\.id), "\(id): framework rules in the rule table")
        }
        #expect(seen.sorted() == ConformanceRule.all.map(\.id).sorted(), "the table lists each kit rule once")
    }

    @Test(
        "Every R-number the README, FRAMEWORK-RULES.md, docs/ and the DocC articles cite is a declared framework rule")
    func citedRulesExist() throws {
        let names = try Self.markdownDocuments()
        #expect(names.contains("docs/conformance-kit.md") && names.contains("docs/architecture.md"), "\(names)")
        #expect(names.contains("Sources/ContactProvider/ContactProvider.docc/WritingAProvider.md"), "\(names)")
        for name in names {
            let text = try Self.document(name)
            for id in Set(Self.frameworkIDs(in: text)) {
                #expect(FrameworkRule.named(id) != nil, "\(name) cites \(id), which is not declared")
            }
        }
        #expect(Self.frameworkIDs(in: "R19, R32–R35") == ["R19", "R32", "R33", "R34", "R35"])
    }
}
