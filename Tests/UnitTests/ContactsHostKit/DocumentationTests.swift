import ContactProviderConformance
import ContactsHostConformance
import ContactsHostKit
import Foundation
import TestSupport
import Testing

/// What the documents say about commands, variables, files and code is checked against what the
/// code declares: the README, `docs/` and the DocC articles cannot drift from it unnoticed.
@Suite("Docs agree with the declarations: links, paths, environment variables, help, the kit's custom backend")
struct DocumentationTests {
    private static var packageRoot: String {
        PythonTestTools.repositoryRoot
    }

    private static func document(_ name: String) throws -> String {
        try String(contentsOfFile: packageRoot + "/" + name, encoding: .utf8)
    }

    private static func matches(_ pattern: String, in text: String, group: Int = 1) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            (text as NSString).substring(with: $0.range(at: group))
        }
    }

    @Test("The README is a front door: about 200 lines, the two commands, and links to docs/ and the DocC articles")
    func readmeIsShort() throws {
        let readme = try Self.document("README.md")
        let lines = readme.components(separatedBy: "\n").count
        #expect(lines <= 220, "README.md has \(lines) lines; move the detail into docs/ or a DocC article")
        #expect(readme.contains("swift run contacts-host demo"))
        #expect(readme.contains("swift test"))
        for target in [
            "docs/cli.md", "docs/architecture.md", "docs/guarantees.md", "docs/file-formats.md",
            "docs/pipe-messages.md", "docs/benchmarks.md", "docs/style.md", "docs/conformance-kit.md",
            "docs/debugging.md", "docs/xcode-projects.md", "docs/vcard.md", "docs/carddav.md",
            "Sources/ContactProviderConformance/ContactProviderConformance.docc/CheckingWithTheKit.md",
        ] {
            #expect(readme.contains("(\(target)"), "the README links to \(target)")
        }
    }

    @Test("Every relative link in the README, docs/ and the DocC articles names a file that exists")
    func linksResolve() throws {
        let names = try RuleDocumentsTests.markdownDocuments()
        #expect(names.count > 15, "\(names)")
        for name in names {
            let text = try Self.document(name)
            for link in Self.matches(#"\]\(([^)#\s]+)(#[^)]*)?\)"#, in: text) where !link.contains("://") {
                let base = URL(fileURLWithPath: Self.packageRoot + "/" + name).deletingLastPathComponent()
                let target = base.appendingPathComponent(link).standardizedFileURL.path
                #expect(
                    FileManager.default.fileExists(atPath: target), "\(name) links to \(link), which does not exist")
            }
        }
    }

    @Test("Every repository path a document names in code voice exists (FRAMEWORK-RULES.md's source file among them)")
    func namedPathsExist() throws {
        for name in try RuleDocumentsTests.markdownDocuments() {
            let text = try Self.document(name)
            for path in Self.matches(#"`((?:Sources|Examples|Tests|Scripts|docs)/[^`\s]*)`"#, in: text) {
                // Placeholders, and the walkthrough's own package (made in the reader's directory).
                if path.contains("<") || path.contains("*") || path.contains("…") { continue }
                if path.hasPrefix("Sources/MyProvider") { continue }
                let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
                #expect(
                    FileManager.default.fileExists(atPath: Self.packageRoot + "/" + trimmed),
                    "\(name) names \(path), which does not exist")
            }
        }
        // The file named as holding the rules' values declares them (issue 46: it named the type's file).
        let rules = try Self.document("FRAMEWORK-RULES.md")
        let valuesFile = try #require(
            Self.matches(#"declared once, as values, in\s+`([^`]+)`"#, in: rules).first,
            "FRAMEWORK-RULES.md no longer says where the rules are declared")
        let declarations = try String(contentsOfFile: Self.packageRoot + "/" + valuesFile, encoding: .utf8)
        #expect(
            declarations.contains("static let r1 = FrameworkRule(") && declarations.contains("static let r47 ="),
            "FRAMEWORK-RULES.md says the rules are declared in \(valuesFile), which does not declare r1 and r47")
    }

    @Test("The package is called ContactProviderSimulator wherever a Package.swift depends on it")
    func packageNameIsOne() throws {
        for name in try RuleDocumentsTests.markdownDocuments() {
            let text = try Self.document(name)
            for path in Self.matches(#"\.package\(path: "([^"]+)"\)"#, in: text) {
                #expect(path.hasSuffix("/ContactProviderSimulator"), "\(name): .package(path: \"\(path)\")")
            }
            for package in Self.matches(#"\.product\(name: [^,]+, package: "([^"]+)"\)"#, in: text) {
                #expect(package == "ContactProviderSimulator", "\(name): package: \"\(package)\"")
            }
        }
    }

    @Test("docs/cli.md's environment table names exactly the declared variables, and each is described")
    func environmentVariables() throws {
        let cli = try Self.document("docs/cli.md")
        let section = try #require(cli.components(separatedBy: "## Environment variables").dropFirst().first)
        let table = section.components(separatedBy: "\n\n").first { $0.contains("| variable |") } ?? ""
        let listed = Self.matches(#"^\| `([A-Z_]+)` \|"#, in: table)
        #expect(Set(listed).count == listed.count, "a variable is listed twice: \(listed)")
        #expect(Set(listed) == Set(HelpFormatter.environmentVariables.keys), "docs/cli.md lists \(listed.sorted())")
        // The README names only declared variables.
        let readme = try Self.document("README.md")
        for name in Set(Self.matches(#"\b((?:CONTACT_PROVIDER|CONTACTS_HOST|OSLOG|XDG)_[A-Z_]+)\b"#, in: readme)) {
            #expect(HelpFormatter.environmentVariables[name] != nil, "the README names \(name), which is not declared")
        }
        // Every variable a command's help lists has a description there.
        for command in HostTool.allCommands {
            for name in command.environment {
                #expect(
                    HelpFormatter.environmentVariables[name]?.isEmpty == false,
                    "\(command.name.joined(separator: " ")) lists \(name) without a description")
            }
        }
    }

    @Test("docs/cli.md has one row per command, whose first cell is the command's usage line as help renders it")
    func commandReferenceAgrees() throws {
        let cli = try Self.document("docs/cli.md")
        let rows = cli.components(separatedBy: "\n").filter { $0.hasPrefix("| `") }
        var commandRows = 0
        for command in HostTool.allCommands {
            let usage = HelpFormatter.usage(for: command).split(whereSeparator: \.isWhitespace).joined(separator: " ")
            let synopsis = String(usage.dropFirst("USAGE: contacts-host ".count))
                .replacingOccurrences(of: "|", with: "\\|")
            let matching = rows.filter { $0.hasPrefix("| `\(synopsis)` | ") }
            #expect(
                matching.count == 1,
                "docs/cli.md needs one row starting '| `\(synopsis)` |' for \(command.name.joined(separator: " "))")
            commandRows += matching.count
        }
        let declaredNames = Set(HostTool.allCommands.map { $0.name.joined(separator: " ") })
        let documented = rows.filter { row in
            declaredNames.contains { row.hasPrefix("| `\($0) ") || row.hasPrefix("| `\($0)`") }
        }
        #expect(documented.count == commandRows, "docs/cli.md has a command row no declaration matches")
    }

    @Test("docs/cli.md's JSON table is every --json flag's help, and every report flag states the one-line style")
    func jsonReferenceAgrees() throws {
        // The table sits between two markers; CPS_RECORD_GOLDEN=1 renders it there anew, as it re-records goldens.
        let cli = try Self.document("docs/cli.md")
        let table = HelpFormatter.jsonReference(HostTool.allCommands)
        let start = "<!-- json table: rendered from each --json flag's help (CPS_RECORD_GOLDEN=1 rewrites it) -->\n"
        let end = "<!-- end of the json table -->"
        let opening = try #require(cli.range(of: start), "docs/cli.md marks its JSON table")
        let closing = try #require(cli.range(of: end, range: opening.upperBound..<cli.endIndex))
        let shown = String(cli[opening.upperBound..<closing.lowerBound])
        if ProcessInfo.processInfo.environment["CPS_RECORD_GOLDEN"] == "1" {
            let rendered = cli.replacingCharacters(in: opening.upperBound..<closing.lowerBound, with: table)
            try rendered.write(toFile: Self.packageRoot + "/docs/cli.md", atomically: true, encoding: .utf8)
        } else {
            #expect(
                shown == table, "docs/cli.md's JSON table differs from the flags; re-render with CPS_RECORD_GOLDEN=1")
        }
        for command in HostTool.allCommands {
            guard let flag = command.options.first(where: { $0.name == "--json" }) else { continue }
            let name = command.name.joined(separator: " ")
            let documents = name == "export"
            #expect(
                documents || flag.help.hasPrefix("Print one line of JSON"),
                "\(name) --json does not say it prints one line of JSON: \(flag.help)")
        }
    }

    @Test("doctor --help names the name-index check; conformance --help names every backend and where it runs")
    func helpNamesWhatTheCommandDoes() async {
        let doctor = await HostRunner.inProcess.run(["doctor", "--help"]).stdout
        #expect(doctor.contains("name-index"), "\(doctor)")
        let conformance = await HostRunner.inProcess.run(["conformance", "--help"]).stdout
        let flattened = conformance.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for kind in ConformanceBackendKind.known {
            #expect(flattened.contains(kind), "conformance --help omits the backend \(kind)")
        }
        #expect(flattened.contains("temporary App Group"))
        #expect(!conformance.contains("README"), "conformance --help points at the README, which no longer holds it")
        #expect(flattened.contains("docs/conformance-kit.md"))
    }

    @Test("The article's complete custom backend is the code ConformanceKitTests runs, with no elided bodies")
    func customBackendIsTheTestedOne() throws {
        let article = try Self.document(
            "Sources/ContactProviderConformance/ContactProviderConformance.docc/CheckingWithTheKit.md")
        let marker =
            "<!-- checked: Tests/UnitTests/ContactProviderConformance/ConformanceKitTests.swift -->\n```swift\n"
        let start = try #require(article.range(of: marker), "the article marks its checked block")
        let block = String(article[start.upperBound...]).components(separatedBy: "\n```")[0]
        #expect(!block.contains("…"), "the custom backend leaves a body elided")
        let tests = try Self.document("Tests/UnitTests/ContactProviderConformance/ConformanceKitTests.swift")
        func normalised(_ text: String) -> [String] {
            text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let shown = normalised(block)
        #expect(shown.count > 60, "the block is the whole backend and provider")
        let source = normalised(tests)
        let first = try #require(shown.first)
        let at = try #require(source.firstIndex(of: first), "ConformanceKitTests.swift has no '\(first)'")
        #expect(
            Array(source[at..<min(at + shown.count, source.count)]) == shown,
            "the article's custom backend differs from ConformanceKitTests.swift's MemoryBackend and MemoryProvider")
        for name in ["func reset()", "func add(", "func update(", "func delete(identifier:", "func contacts()"] {
            #expect(block.contains(name), "the custom backend implements \(name)")
        }
        #expect(article.contains("comparable(_:)") && article.contains("ConformanceContact"))
    }

    @Test("No document shows a conformance backend with an elided body")
    func noElidedBackend() throws {
        for name in try RuleDocumentsTests.markdownDocuments() {
            let blocks = try Self.document(name).components(separatedBy: "```").enumerated().filter {
                $0.offset % 2 == 1
            }
            for block in blocks.map(\.element) where block.contains(": ConformanceBackend") {
                #expect(!block.contains("{ … }"), "\(name) shows a ConformanceBackend whose bodies are '…'")
            }
        }
    }
}
