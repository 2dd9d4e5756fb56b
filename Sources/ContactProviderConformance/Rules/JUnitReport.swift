import Foundation

extension ConformanceReport {
    /// The report as JUnit XML, as CI systems read it: one `testsuite`, one `testcase` per rule; a
    /// broken MUST rule has a `failure` (message and transcript), a rule that was not checked has
    /// `skipped` with the reason, and a SHOULD warning passes with the warning in `system-out`; what
    /// outlived the provider is in the suite's own `system-out`.
    public var junitXML: String {
        let failures = results.filter { $0.status == .fail }.count
        let skipped = results.filter { $0.status == .skipped }.count
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            "<testsuite name=\"\(XMLText.escape("contact provider conformance: " + provider))\" tests=\"\(results.count)\" "
                + "failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\(XMLText.quoted(String(format: "%.3f", durationSeconds)))>",
            "  <properties>",
            "    <property name=\"seed\" value=\"\(seed)\"/>",
            "    <property name=\"operations\" value=\"\(operations)\"/>",
            "  </properties>",
        ]
        for result in results {
            let rule = result.rule
            let name =
                "\(rule.id) \(rule.title) (\(rule.level.rawValue); \(rule.references.map(\.id).joined(separator: ", ")))"
            lines.append(
                "  <testcase classname=\"ContactProviderConformance.\(rule.level.rawValue)\" name=\(XMLText.quoted(name)) time=\"0\">"
            )
            switch result.status {
            case .pass:
                break
            case .fail:
                lines.append(
                    "    <failure message=\(XMLText.quoted(result.explanation ?? "failed")) type=\"\(rule.id)\">"
                        + XMLText.escape(result.details) + "</failure>")
            case .skipped:
                lines.append("    <skipped message=\(XMLText.quoted(result.explanation ?? "not selected (--rules)"))/>")
            case .warn:
                lines.append(
                    "    <system-out>"
                        + XMLText.escape("WARN (SHOULD): " + (result.explanation ?? "") + "\n" + result.details)
                        + "</system-out>")
            }
            lines.append("  </testcase>")
        }
        // What outlived the provider belongs to no rule: the suite's own output.
        let notes = processNotes
        if !notes.isEmpty {
            lines.append("  <system-out>" + XMLText.escape(notes.joined(separator: "\n")) + "</system-out>")
        }
        lines.append("</testsuite>")
        return lines.joined(separator: "\n") + "\n"
    }
}

extension RuleResult {
    /// The step, the observer calls and the reproduction, as lines (what a failure's body shows).
    public var details: String {
        var lines: [String] = []
        if let step { lines.append("step: \(step)") }
        if let explanation { lines.append("why: \(explanation)") }
        if let transcript, !transcript.isEmpty {
            lines.append("calls:")
            lines += transcript.map { "  " + $0 }
        }
        if let reproduce { lines.append("reproduce: \(reproduce)") }
        return lines.joined(separator: "\n")
    }
}

/// Escaping for XML 1.0 text and attribute values.
enum XMLText {
    /// `text` with markup characters escaped and characters XML 1.0 forbids replaced by U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let allowed = value >= 0x20 && !(0xD800...0xDFFF).contains(value) && value != 0xFFFE && value != 0xFFFF
                out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return out
    }

    /// An attribute value in double quotes.
    static func quoted(_ text: String) -> String { "\"" + escape(text) + "\"" }
}
