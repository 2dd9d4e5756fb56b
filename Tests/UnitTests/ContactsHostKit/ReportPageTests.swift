import AppGroupStore
import ContactProviderSystem
import Foundation
import TestSupport
import Testing

@testable import ContactsHostKit

/// `report --html`'s pieces (issue 45): the timeline of a fixed history is the golden SVG and table
/// (`Tests/Fixtures/HTML/sync-timeline.html`, re-record with `CPS_RECORD_GOLDEN=1`), old syncs are
/// summarised, and the Contacts list sorts, sections, caps and marks differences.
@Suite("Report page: the sync timeline and the Contacts list")
struct ReportPageTests {
    /// A content sync of three pages, a change sync, a failure, an expiry's full resync, a reset.
    static let history: [SyncHistoryEntry] = {
        var content = SyncHistoryEntry(kind: .sync, time: 1_780_000_000)
        content.enumeration = "content"
        for (index, items) in [2, 2, 1].enumerated() {
            content.add(
                .init(
                    kind: "page", updated: items, deleted: 0,
                    position: index == 2 ? "(g1, 0)" : "(g1, \(2 * (index + 1)))", milliseconds: 1.5))
        }
        content.updated = 5
        content.deleted = 0
        content.durationMs = 9
        content.callLimitMs = 10_000
        content.systemCount = 5
        content.position = "(g1, 0)"
        var changes = SyncHistoryEntry(kind: .sync, time: 1_780_000_060)
        changes.enumeration = "changes"
        changes.add(.init(kind: "batch", updated: 1, deleted: 1, position: "(g1, 2)", milliseconds: 6_000))
        changes.updated = 1
        changes.deleted = 1
        changes.durationMs = 6_010
        changes.callLimitMs = 10_000
        changes.systemCount = 5
        changes.position = "(g1, 2)"
        var failed = SyncHistoryEntry(kind: .sync, time: 1_780_000_120)
        failed.enumeration = "changes"
        failed.error = .init(code: nil, rule: "R40", message: "moreComing is true but the anchor did not advance")
        failed.updated = 0
        failed.deleted = 0
        failed.systemCount = 5
        var expired = SyncHistoryEntry(kind: .sync, time: 1_780_000_180)
        expired.enumeration = "changes"
        expired.add(
            .init(
                kind: "batch", updated: 0, deleted: 0, position: nil, milliseconds: 0.5, expired: "changeAnchorExpired")
        )
        expired.add(.init(kind: "page", updated: 4, deleted: 0, position: "(g2, 0)", milliseconds: 2))
        expired.restarted = true
        expired.updated = 4
        expired.deleted = 0
        expired.systemCount = 4
        return [content, changes, failed, expired, SyncHistoryEntry(kind: .reset, time: 1_780_000_240)]
    }()

    @Test("a fixed history gives the golden timeline, byte for byte, twice")
    func goldenTimeline() throws {
        let html = SyncTimelineSVG.html(Self.history)
        let file = PythonTestTools.repositoryRoot + "/Tests/Fixtures/HTML/sync-timeline.html"
        if ProcessInfo.processInfo.environment["CPS_RECORD_GOLDEN"] == "1" {
            try Data(html.utf8).write(to: URL(fileURLWithPath: file))
        }
        let golden = try String(contentsOfFile: file, encoding: .utf8)
        #expect(html == golden, "re-record with CPS_RECORD_GOLDEN=1 and review the diff")
        #expect(html == SyncTimelineSVG.html(Self.history))
        // Readable without colour: every outcome is a word too.
        for word in ["✓ ok", "✗ failed", "changeAnchorExpired → full resync", "reset: the system store was emptied"] {
            #expect(html.contains(word), "\(word)")
        }
        #expect(ChromiumTool.urls(in: html).isEmpty)
    }

    @Test("1,000 syncs: the newest 50 drawn, the rest in summary rows of 50")
    func thousandSyncs() {
        let many = (0..<1000).map { index -> SyncHistoryEntry in
            var entry = Self.history[index % 4]
            entry.time = 1_780_000_000 + Double(index)
            return entry
        }
        let html = SyncTimelineSVG.html(many)
        #expect(html.components(separatedBy: "<g class=\"row ").count - 1 == 50)
        #expect(html.contains("<td>1–50</td>") && html.contains("<td>901–950</td>"))
        #expect(!html.contains("<td>951–1000</td>"))
        #expect(html.contains("the newest 50 drawn, the 950 older summarised"))
        #expect(html.utf8.count < 400_000, "\(html.utf8.count) bytes")
    }

    private func record(_ id: String, _ given: String, _ family: String, phone: String? = nil) -> ContactRecord {
        var record = ContactRecord(identifier: id)
        record.givenName = given
        record.familyName = family
        if let phone { record.phoneNumbers = [.init(label: "_$!<Mobile>!$_", value: phone)] }
        return record
    }

    @Test("sections by family name with # last, folded letters, capped cards, and every difference marked")
    func contactList() throws {
        let system = [
            record("1", "Ada", "Lovelace", phone: "1"), record("2", "Émile", "Émery"), record("3", "Zed", ""),
            record("4", "Nine", "9Lives"), record("5", "Only", "System"),
        ]
        let app = [
            record("1", "Ada", "Lovelace", phone: "2"), record("2", "Émile", "Émery"), record("3", "Zed", ""),
            record("4", "Nine", "9Lives"), record("6", "Only", "App"),
        ]
        let list = ContactListHTML(system: system, app: app)
        let sections = ContactListHTML.sections(system)
        #expect(sections.keys.sorted(by: ContactListHTML.letterOrder) == ["E", "L", "S", "Z", "#"])
        // As CNContact's family-name comparator: numbers by value, a company by its name, nameless last.
        var company = ContactRecord(identifier: "co")
        company.organizationName = "Acme"
        let ordered = [
            record("a", "Item", "Unit 10"), record("b", "Item", "Unit 2"), ContactRecord(identifier: "z"), company,
        ]
        .sorted { ContactListHTML.sortKey($0) < ContactListHTML.sortKey($1) }.map(\.identifier)
        #expect(ordered == ["co", "b", "a", "z"])
        let differences = list.differences().byID
        #expect(differences["1"]?.kind == .differs && differences["1"]?.fields == ["phone (mobile)"])
        #expect(differences["5"]?.kind == .onlySystem && differences["6"]?.kind == .onlyApp)
        #expect(differences["2"] == nil && differences.count == 3)

        try withTemporaryAppGroup { group in
            let page = try HTMLPageWriter(path: group.path + "/list.html")
            try list.write(displayName: "My <App>", to: page)
            try page.finish()
            let html = try String(contentsOfFile: group.path + "/list.html", encoding: .utf8)
            #expect(html.contains("Contacts: My &lt;App&gt;"))
            #expect(html.contains("≠ differs: phone (mobile)") && html.contains("∅ only in the system"))
            #expect(html.contains("∅ only in the app (not synced yet)"))
            #expect(html.contains("3 differences: 1 only in the system, 1 only in the app, 1 with different fields"))

            let many = (0..<(ContactListHTML.cardsPerSection + 7)).map { record("m\($0)", "G\($0)", "Miller") }
            let capped = try HTMLPageWriter(path: group.path + "/capped.html")
            try ContactListHTML(system: many, app: many).write(displayName: "x", to: capped)
            try capped.finish()
            let cappedHTML = try String(contentsOfFile: group.path + "/capped.html", encoding: .utf8)
            #expect(
                cappedHTML.components(separatedBy: "class=\"card\"").count - 1 == 2 * ContactListHTML.cardsPerSection)
            #expect(cappedHTML.contains("… and 7 more") && cappedHTML.contains("✓ They agree."))
        }
    }
}
