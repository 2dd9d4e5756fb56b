import AppStores
import Foundation

/// The kit's report as one self-contained HTML page (`contacts-host conformance --html FILE`, issue 45),
/// beside the JUnit writer: the verdict first; then the failures grouped by root cause, each with its
/// shrunk reproduction drawn as a sequence diagram (app, system and provider lanes, the step where the
/// stores diverged marked), the contacts that differ with the expected and the actual values side by
/// side, and the `reproduce:` line in a block that selects whole; then every rule in a table.
///
/// Deterministic: the same report gives the same page, but for the time given as `generatedAt`.
public struct ConformanceHTMLReport: Sendable {
    /// The report drawn.
    public let report: ConformanceReport

    /// A writer for `report`.
    public init(report: ConformanceReport) {
        self.report = report
    }

    /// The page; `generatedAt`, when given, is printed under the title (a golden test leaves it out).
    public func html(generatedAt: Date? = nil) -> String {
        var body =
            "<p class=\"verdict \(report.passed ? "passed" : "failed")\">"
            + (report.passed ? "\u{2713} PASSED: " : "\u{2717} FAILED: ")
            + HTMLPage.escape(report.startFailure == nil ? report.summary : "the provider could not start")
            + "</p>\n"
        body +=
            "<p>Provider <code>\(HTMLPage.escape(report.provider))</code>, seed \(report.seed), "
            + "\(report.operations) operations.</p>\n"
        if let startFailure = report.startFailure {
            body +=
                "<h2>The provider could not start</h2>\n<p>No rule was checked.</p>\n<pre>"
                + HTMLPage.escape(startFailure) + "</pre>\n"
            return HTMLPage.document(title: title, generatedAt: generatedAt, body: body)
        }
        let groups = RootCause.groups(report.results)
        if !groups.isEmpty {
            body += "<h2>Failures and warnings by root cause (\(groups.count))</h2>\n"
            for (index, group) in groups.enumerated() {
                body +=
                    "<section class=\"group\" id=\"cause-\(index + 1)\">\n<h3>Root cause \(index + 1): "
                    + HTMLPage.escape(group.title) + " \u{2014} rules "
                    + group.findings.map { HTMLPage.escape($0.rule.id) }.joined(separator: ", ") + "</h3>\n"
                body += group.findings.map(finding).joined()
                body += "</section>\n"
            }
        }
        body += ruleTable
        body += notes
        return HTMLPage.document(title: title, generatedAt: generatedAt, body: body)
    }

    var title: String { "Contact provider conformance: " + (report.provider as NSString).lastPathComponent }

    /// One failed or warned rule: what, the diagram, the contacts side by side, the transcript, the reproduction.
    func finding(_ result: RuleResult) -> String {
        let rule = result.rule
        let verdict = result.status == .fail ? "\u{2717} FAIL" : "! WARN"
        var out =
            "<article class=\"finding\" id=\"rule-\(HTMLPage.escape(rule.id))\">\n<h4>\(verdict) "
            + "\(HTMLPage.escape(rule.id)) (\(rule.level.rawValue)): \(HTMLPage.escape(rule.title))</h4>\n"
        if let step = result.step { out += "<p><b>Step:</b> \(HTMLPage.escape(step))</p>\n" }
        if let explanation = result.explanation { out += "<p><b>Why:</b> \(HTMLPage.escape(explanation))</p>\n" }
        let story = FailureStory(result)
        if let svg = SequenceDiagramSVG.svg(story) {
            out +=
                "<figure>\(svg)<figcaption>The shrunk reproduction, step by step"
                + (story.divergence.map { "; the stores diverge at step \($0 + 1)" } ?? "")
                + ".</figcaption></figure>\n"
        }
        for contact in story.contacts { out += Self.sideBySide(contact) }
        if let transcript = result.transcript, !transcript.isEmpty {
            out +=
                "<details><summary>Observer calls (\(transcript.count))</summary><pre>"
                + HTMLPage.escape(transcript.joined(separator: "\n")) + "</pre></details>\n"
        }
        if let reproduce = result.reproduce {
            out +=
                "<p><b>Reproduce</b> (select and copy):</p>\n<pre class=\"reproduce\"><code>"
                + HTMLPage.escape(reproduce) + "</code></pre>\n"
        }
        return out + "</article>\n"
    }

    /// A contact the stores disagree on: the app's data (expected) beside the system's (actual).
    static func sideBySide(_ contact: FailureStory.ContactDifference) -> String {
        func card(_ heading: String, _ value: (FieldDifference) -> String) -> String {
            "<div><div class=\"card differs\"><b>\(heading)</b>: \(HTMLPage.escape(contact.name)) "
                + "<code>\(HTMLPage.escape(contact.identifier))</code><dl>"
                + contact.fields.map {
                    "<dt>\u{2260} \(HTMLPage.escape($0.field))</dt><dd><code>\(HTMLPage.escape(value($0)))</code></dd>"
                }
                .joined() + "</dl></div></div>"
        }
        return "<div class=\"side\">" + card("Expected (the app's store)", \.expected)
            + card("Actual (the system's store)", \.got) + "</div>\n"
    }

    /// Every rule, one row each, with its status in words.
    var ruleTable: String {
        var out =
            "<h2>Every rule (\(report.results.count))</h2>\n<table><thead><tr><th>rule</th><th>level</th>"
            + "<th>result</th><th>title</th><th>framework rules</th></tr></thead><tbody>\n"
        for result in report.results {
            let rule = result.rule
            // A rule `--rules` left out was not skipped: nobody asked for it (issue 43, item 8).
            let status =
                result.status == .skipped && result.explanation == nil ? "not-selected" : result.status.rawValue
            let words = status.replacingOccurrences(of: "-", with: " ")
            let anchor =
                result.status == .fail || result.status == .warn
                ? "<a href=\"#rule-\(HTMLPage.escape(rule.id))\">\(HTMLPage.escape(rule.id))</a>"
                : HTMLPage.escape(rule.id)
            out +=
                "<tr class=\"\(status)\"><td>\(anchor)</td><td>\(rule.level.rawValue)</td>"
                + "<td class=\"status-\(status)\">\(words)</td><td>\(HTMLPage.escape(rule.title))</td>"
                + "<td>\(HTMLPage.escape(rule.references.map(\.id).joined(separator: ", ")))</td></tr>\n"
        }
        return out + "</tbody></table>\n"
    }

    /// What passing rules measured, what could not be checked and why, and what outlived the provider.
    var notes: String {
        var lines: [String] = []
        for result in report.results where result.status == .pass {
            if let explanation = result.explanation { lines.append("\(result.rule.id): \(explanation)") }
        }
        for result in report.results where result.status == .skipped {
            if let reason = result.explanation { lines.append("\(result.rule.id) not checked: \(reason)") }
        }
        lines += report.processNotes
        guard !lines.isEmpty else { return "" }
        return "<h2>Notes</h2>\n<ul>\n" + lines.map { "<li>\(HTMLPage.escape($0))</li>\n" }.joined() + "</ul>\n"
    }
}
