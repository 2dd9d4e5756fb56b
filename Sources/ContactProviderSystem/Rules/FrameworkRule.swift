/// One numbered rule of Apple's ContactProvider framework (R1–R47), as the simulator reads it.
///
/// The rules are declared once, as values (`FrameworkRule.r23`, `FrameworkRule.all`); the kit's
/// rules refer to them by value, and FRAMEWORK-RULES.md is their rendering (`documentMarkdown`),
/// checked by a test.
public struct FrameworkRule: Hashable, Sendable, CustomStringConvertible {
    /// The part of the framework a rule is about (the headings of FRAMEWORK-RULES.md).
    public enum Section: String, CaseIterable, Sendable {
        case manager = "Manager / domain lifecycle"
        case extensionLifecycle = "Extension lifecycle"
        case content = "Content enumeration (full sync)"
        case changes = "Change enumeration (incremental sync)"
        case timing = "Timing, limits, invalidation"
        case valueTypes = "Value types"
    }

    /// 1…47.
    public let number: Int
    /// Where the rule comes from: `Doc` (Apple's documentation), `Forum`, `Sample`, `Inferred`, or a mix.
    public let source: String
    /// The part of the framework it is about.
    public let section: Section
    /// The rule in Markdown: its first line, then any further lines and sub-bullets.
    public let text: String

    /// `R23`.
    public var id: String { "R\(number)" }

    /// `R23`.
    public var description: String { id }

    /// The rule as one bullet of FRAMEWORK-RULES.md: `- **R23** [Sample] text`, further lines indented.
    public var markdown: String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let rest = lines.dropFirst().map { "  " + $0 }
        return (["- **\(id)** [\(source)] " + (lines.first.map(String.init) ?? "")] + rest).joined(separator: "\n")
    }

    /// The rule with `id` (`R23`, case-insensitive), if any.
    public static func named(_ id: String) -> FrameworkRule? {
        let upper = id.uppercased()
        return all.first { $0.id == upper }
    }

    /// The rule list of FRAMEWORK-RULES.md (from its first section heading to the end): each
    /// section's heading, then its rules.
    public static var documentMarkdown: String {
        Section.allCases.map { section in
            "### \(section.rawValue)\n\n" + all.filter { $0.section == section }.map(\.markdown).joined(separator: "\n")
                + "\n"
        }.joined(separator: "\n")
    }
}
