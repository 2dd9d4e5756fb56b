import Foundation
import TestSupport
import Testing

/// The walkthrough the README points a newcomer to, the `ContactProvider` catalog's "Writing a provider"
/// (`Sources/ContactProvider/ContactProvider.docc/WritingAProvider.md`), run as a newcomer would: each
/// block marked `<!-- walkthrough file: PATH -->` is written to PATH, each `<!-- walkthrough run -->`
/// block runs in bash, in the article's order, in an empty package directory next to a
/// `ContactProviderSimulator` checkout.
///
/// One test, because building a fresh package that depends on this one costs minutes on 2 cores.
/// Its directory is `.build/walkthrough/MyProvider` (emptied of everything but its own `.build`
/// before each run), so a second run rebuilds only what changed.
@Suite("README walkthrough (Writing a provider): write and check your own provider, as written")
struct ReadmeWalkthroughTests {
    /// One marked block of the article.
    enum Step: Equatable {
        case file(path: String, contents: String)
        case run(script: String)
    }

    /// The marked blocks of `markdown`, in order; a marker not followed by a fenced block is an error.
    static func steps(in markdown: String) throws -> [Step] {
        var steps: [Step] = []
        var lines = markdown.components(separatedBy: "\n")[...]
        while let line = lines.popFirst() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("<!-- walkthrough"), trimmed.hasSuffix("-->") else { continue }
            let directive = trimmed.dropFirst("<!-- walkthrough".count).dropLast("-->".count)
                .trimmingCharacters(in: .whitespaces)
            guard let fence = lines.popFirst(), fence.hasPrefix("```") else {
                throw WalkthroughError("walkthrough: '\(trimmed)' is not followed by a fenced code block")
            }
            var body: [String] = []
            while let next = lines.popFirst(), !next.hasPrefix("```") { body.append(next) }
            let text = body.joined(separator: "\n") + "\n"
            if directive == "run" {
                steps.append(.run(script: text))
            } else if directive.hasPrefix("file:") {
                let path = directive.dropFirst("file:".count).trimmingCharacters(in: .whitespaces)
                guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("..") else {
                    throw WalkthroughError("walkthrough: '\(trimmed)' needs a relative path inside the package")
                }
                steps.append(.file(path: path, contents: text))
            } else {
                throw WalkthroughError("walkthrough: unknown marker '\(trimmed)' (use 'file: PATH' or 'run')")
            }
        }
        return steps
    }

    struct WalkthroughError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The article whose marked blocks are run.
    static let articlePath = "Sources/ContactProvider/ContactProvider.docc/WritingAProvider.md"

    private static var packageRoot: String {
        PythonTestTools.repositoryRoot
    }

    @Test("The marker parser takes files and scripts in order and refuses a marker without a block")
    func parser() throws {
        let markdown = """
            text
            <!-- walkthrough file: Sources/A/a.swift -->
            ```swift
            let a = 1
            ```
            <!-- walkthrough run -->
            ```sh
            echo hi
            ```
            """
        #expect(
            try Self.steps(in: markdown) == [
                .file(path: "Sources/A/a.swift", contents: "let a = 1\n"), .run(script: "echo hi\n"),
            ])
        #expect(throws: WalkthroughError.self) { try Self.steps(in: "<!-- walkthrough run -->\ntext") }
        #expect(throws: WalkthroughError.self) { try Self.steps(in: "<!-- walkthrough file: ../x -->\n```\n```") }
    }

    @Test("The README's five-minute tour runs as written, in a fresh App Group, with contacts-host on the PATH")
    func readmeTourAsWritten() throws {
        let readme = try String(contentsOfFile: Self.packageRoot + "/README.md", encoding: .utf8)
        let steps = try Self.steps(in: readme)
        #expect(steps.count == 1, "the README marks its tour, and only that: \(steps)")
        guard case .run(let tour) = try #require(steps.first) else {
            Issue.record("the README's marked block is a file, not commands")
            return
        }
        for command in ["contacts-host enable", "contacts-host signal --wait", "contacts-host conformance"] {
            #expect(tour.contains(command), "the tour shows '\(command)'")
        }
        try withTemporaryAppGroup { group in
            var environment = group.environment
            environment["CONTACT_PROVIDER_EXTENSION"] = nil
            // The README's `swift build` and `export PATH=…` come first; this test runs inside `swift test`,
            // built already, so it puts the same directory on the PATH itself.
            let bin = (BuiltProducts.path("contacts-host") as NSString).deletingLastPathComponent
            environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            defer { _ = try? HostRunner.process.run(["invalidate"], in: group) }
            let script = "set -euo pipefail\ncd \"$0\"\n" + tour
            // The tour writes its report page where a reader runs it, the package folder: removed after.
            let page = Self.packageRoot + "/report.html"
            defer { try? FileManager.default.removeItem(atPath: page) }
            let result = try ProcessRunner.run("/bin/bash", ["-c", script, Self.packageRoot], environment: environment)
            #expect(result.exitCode == 0, "the README's tour failed as written:\n\(script)\n\(result)")
            #expect(
                !tour.contains("report --html report.html") || FileManager.default.fileExists(atPath: page),
                "the tour's report page was written")
            #expect(result.stdout.contains("Ada Lovelace"), "system list shows the contact added: \(result)")
            #expect(result.stdout.contains(" passed, 0 failed"), "conformance passes: \(result)")
            #expect(result.stdout.contains("USAGE: contacts-host signal"), "help signal: \(result)")
        }
    }

    @Test(
        "From an empty directory: the walkthrough's Package.swift and provider build, sync and pass contacts-host conformance"
    )
    func walkthroughAsWritten() throws {
        let readme = try String(contentsOfFile: Self.packageRoot + "/README.md", encoding: .utf8)
        // The README sends a newcomer to the article, and shows the same commands in brief.
        #expect(readme.contains("(" + Self.articlePath + ")"), "the README links to \(Self.articlePath)")
        for command in [
            "contacts-host enable --extension .build/debug/MyProvider", "contacts-host signal --wait --trace",
            "contacts-host conformance --extension .build/debug/MyProvider",
        ] {
            #expect(readme.contains(command), "the README's brief walkthrough shows '\(command)'")
        }
        let article = try String(contentsOfFile: Self.packageRoot + "/" + Self.articlePath, encoding: .utf8)
        let steps = try Self.steps(in: article)
        let files = steps.compactMap { if case .file(let path, _) = $0 { path } else { nil } }
        #expect(files == ["Package.swift", "Sources/MyProvider/Provider.swift"], "the walkthrough's files")
        #expect(steps.contains { if case .run = $0 { true } else { false } })

        // The layout the article asks for: the package directory next to the simulator's checkout.
        let fileManager = FileManager.default
        let workspace = Self.packageRoot + "/.build/walkthrough"
        try fileManager.createDirectory(atPath: workspace, withIntermediateDirectories: true)
        let checkout = workspace + "/ContactProviderSimulator"
        try? fileManager.removeItem(atPath: checkout)
        try fileManager.createSymbolicLink(atPath: checkout, withDestinationPath: Self.packageRoot)
        let package = workspace + "/MyProvider"
        try fileManager.createDirectory(atPath: package, withIntermediateDirectories: true)
        for entry in try fileManager.contentsOfDirectory(atPath: package) where entry != ".build" {
            try fileManager.removeItem(atPath: package + "/" + entry)
        }

        try withTemporaryAppGroup { group in
            var environment = group.environment
            environment["CONTACT_PROVIDER_EXTENSION"] = nil
            var script = "set -euo pipefail\ncd \"$0\"\n"
            for step in steps {
                switch step {
                case .file(let path, let contents):
                    let target = package + "/" + path
                    try fileManager.createDirectory(
                        atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    try Data(contents.utf8).write(to: URL(fileURLWithPath: target))
                case .run(let block):
                    script += block
                }
            }
            // One shell, as in one terminal: later blocks see what earlier ones exported (the PATH).
            let result = try ProcessRunner.run("/bin/bash", ["-c", script, package], environment: environment)
            #expect(
                result.exitCode == 0, "the walkthrough (\(Self.articlePath)) failed as written:\n\(script)\n\(result)")
            #expect(result.stdout.contains("Ada Lovelace"), "system list shows the contact added: \(result)")
            #expect(result.stdout.contains(" passed, 0 failed"), "conformance passes: \(result)")
        }
    }
}
