import AppGroupStore
import ContactProviderSystem
import Foundation
import TestSupport
import Testing

/// `contacts-host report --html` (issue 45) after real syncs through the demo provider, opened in a
/// real headless chromium from file://; and a page for 100,000 contacts and 1,000 syncs.
@Suite("End to end: the report page (sync timeline, Contacts list) in a real browser")
struct SyncReportPageTests {
    private func contact(_ given: String, _ family: String, in group: TemporaryAppGroup) throws -> String {
        try host(["add", "--given-name", given, "--family-name", family], in: group).output
    }

    @Test(
        "after a content sync, a change sync and a reset, the page loads quietly and shows every sync, contact and difference"
    )
    func pageAfterRealSyncs() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            let ada = try contact("Ada", "Lovelace", in: group)
            let grace = try contact("Grace", "Hopper", in: group)
            let edsger = try contact("Edsger", "Dijkstra", in: group)
            let content = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(content["enumeration"] as? String == "content" && content["updated"] as? Int == 3)
            try host(["update", grace, "--phone", "work=+1 555 0100"], in: group)
            try host(["delete", edsger], in: group)
            let changes = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(changes["enumeration"] as? String == "changes" && changes["deleted"] as? Int == 1)
            try host(["system", "reset"], in: group)
            let resynced = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(resynced["enumeration"] as? String == "content" && resynced["updated"] as? Int == 2)
            try stopProvider(group)
            // The app edits its store without signalling: the page must show the stores differ.
            let database = AppDatabase(appGroup: group.appGroup)
            _ = try database.update(ada) { $0.jobTitle = "Analyst" }
            var alan = ContactRecord(identifier: "alan-turing")
            alan.givenName = "Alan"
            alan.familyName = "Turing"
            _ = try database.add(alan)

            try host(["device", "add", "--given-name", "Katherine", "--family-name", "Johnson"], in: group)

            // The page goes outside the App Group, which the command only reads.
            let page = NSTemporaryDirectory() + "/cps-report-\(UUID().uuidString).html"
            defer { try? FileManager.default.removeItem(atPath: page) }
            var environment = group.environment
            environment["CONTACT_PROVIDER_APP_NAME"] = "Report Demo & Co"
            let before = ReliabilityTree.walk(group.path)
            let result = try HostRunner.process.run(["report", "--html", page], environment: environment)
            #expect(result.exitCode == 0, "\(result)")
            let after = ReliabilityTree.walk(group.path)
            #expect(after == before, "report changed the App Group: \(ReliabilityTree.difference(before, after))")
            #expect(result.stdout.contains("4 recorded syncs"), "\(result)")
            let source = try String(contentsOfFile: page, encoding: .utf8)
            #expect(ChromiumTool.urls(in: source).isEmpty, "\(ChromiumTool.urls(in: source))")
            // Deterministic but for the time it was made.
            let again = NSTemporaryDirectory() + "/cps-report-\(UUID().uuidString).html"
            defer { try? FileManager.default.removeItem(atPath: again) }
            #expect(try HostRunner.process.run(["report", "--html", again], environment: environment).exitCode == 0)
            let made = /<p class="made">[^<]*<\/p>/
            #expect(
                try String(contentsOfFile: again, encoding: .utf8).replacing(made, with: "")
                    == source.replacing(made, with: ""), "two pages of the same App Group differ")
            #expect(!source.contains("<script") && !source.contains("@import") && !source.contains("url(http"))

            let load = try ChromiumTool.load(page)
            #expect(load.consoleMessages.isEmpty, "\(load.consoleMessages)")
            #expect(load.networkRequests.isEmpty, "\(load.networkRequests)")
            let dom = load.dom
            #expect(dom.contains("Contacts: Report Demo &amp; Co"))
            // Every sync, with its counts, in the text table: content 3, changes 1 updated 1 deleted, reset, content 2.
            let rows = dom.matches(
                of:
                    /<tr[^>]*><td class="num">(\d+)<\/td><td>[^<]*<\/td><td>([a-z]+)<\/td><td>[^<]*<\/td><td class="num">(\d*)<\/td><td class="num">(\d*)<\/td>/
            )
            .map { "\($0.output.2) \($0.output.3) \($0.output.4)" }
            #expect(rows == ["content 3 0", "changes 1 1", "reset  ", "content 2 0"], "\(rows)")
            #expect(dom.contains("page 1: 3 contacts →") && dom.contains("reset: system store emptied (R9)"))
            for name in ["Ada Lovelace", "Grace Hopper", "Alan Turing"] { #expect(dom.contains(name), "\(name)") }
            #expect(!dom.contains("Edsger"), "a deleted contact is on the page")
            #expect(dom.contains("The device's own contacts: 1") && dom.contains("Katherine Johnson"))
            #expect(dom.contains("≠ differs: job title"))
            #expect(dom.contains("∅ only in the app (not synced yet)"))
            #expect(dom.contains("2 differences: 0 only in the system, 1 only in the app, 1 with different fields"))

            let picture = try ChromiumTool.screenshot(page, width: 1200, height: 900)
            #expect(picture.width == 1200 && picture.height == 900)
            #expect(picture.distinctColours > 8, "the screenshot has \(picture.distinctColours) colours: blank")
        }
    }

    /// 100,000 contacts synced through the demo provider (one content sync of 100 pages), three edits
    /// behind the system's back, and 1,000 more recorded syncs written by the engine's own writer. Bounds: `report` within 60 s and the page under 8 MB (its sections
    /// are capped), chromium's load within 60 s: generous for a debug build on a shared machine; they
    /// catch a page that grows with the book, not a slow one.
    @Test("100,000 contacts and 1,000 syncs: a bounded page, written and loaded within the stated bounds")
    func largeBook() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            try host(["generate", "100000", "--seed", "3"], in: group)
            let synced = try jsonObject(try host(["signal", "--wait", "--json", "--timeout", "300"], in: group))
            #expect(synced["systemCount"] as? Int == 100_000, "\(synced)")
            try stopProvider(group)
            // Three edits the system has not heard of: two changed, one new.
            let database = AppDatabase(appGroup: group.appGroup)
            let some = try database.all().prefix(2).map(\.identifier)
            for identifier in some {
                _ = try database.update(identifier) { $0.note = "edited behind the system's back" }
            }
            var newcomer = ContactRecord(identifier: "newcomer")
            newcomer.givenName = "Nia"
            newcomer.familyName = "Newcomer"
            _ = try database.add(newcomer)
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            let history = SyncHistoryFile(paths: paths)
            let appending = Date()
            for index in 0..<1000 {
                var entry = SyncHistoryEntry(
                    kind: index % 97 == 0 ? .reset : .sync, time: 1_780_000_000 + Double(index))
                if entry.kind == .sync {
                    entry.enumeration = "changes"
                    for batch in 0..<(index % 5 + 1) {
                        entry.add(
                            .init(
                                kind: "batch", updated: batch * 10, deleted: 1, position: "(g, \(index))",
                                milliseconds: 3))
                    }
                    entry.updated = (index % 5) * 10
                    entry.deleted = index % 5 + 1
                    entry.callLimitMs = 10_000
                }
                try history.append(entry)
            }
            let appendSeconds = Date().timeIntervalSince(appending)
            let page = group.path + "/large.html"
            let started = Date()
            let result = try HostRunner.process.run(["report", "--html", page], in: group)
            let seconds = Date().timeIntervalSince(started)
            #expect(result.exitCode == 0, "\(result)")
            #expect(
                result.stdout.contains("1001 recorded syncs") && result.stdout.contains("100000 system contacts")
                    && result.stdout.contains("100001 in the app's store"), "\(result)")
            #expect(seconds < 60, "report took \(seconds) s")
            let size = try FileManager.default.attributesOfItem(atPath: page)[.size] as? Int ?? 0
            #expect(size < 8_000_000, "the page is \(size) bytes")
            let load = try ChromiumTool.load(page)
            #expect(load.consoleMessages.isEmpty, "\(load.consoleMessages)")
            #expect(load.networkRequests.isEmpty, "\(load.networkRequests)")
            #expect(load.seconds < 60, "chromium took \(load.seconds) s")
            #expect(
                load.dom.contains("3 differences: 0 only in the system, 1 only in the app, 2 with different fields"))
            #expect(load.dom.contains("Nia Newcomer") && load.dom.contains("≠ differs: note"))
            #expect(load.dom.contains("the newest 50 drawn, the 951 older summarised"))
            let cards = load.dom.components(separatedBy: "class=\"card").count - 1
            #expect(cards <= 2 * 27 * 25, "\(cards) cards: more than the caps allow")
            #expect(load.dom.contains("Contacts: \((group.path as NSString).lastPathComponent)"))
            print(
                "report: 1000 durable history appends in \(String(format: "%.2f", appendSeconds)) s; "
                    + "100000 contacts, 1001 syncs: \(size) bytes in \(String(format: "%.1f", seconds)) s, chromium \(String(format: "%.1f", load.seconds)) s"
            )
        }
    }

    @Test(
        "a torn history line is a warning and the page is written; a damaged line fails naming file and line, doctor names it, --repair moves it aside"
    )
    func damagedHistory() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            try host(["add", "--given-name", "Ada", "--family-name", "Lovelace"], in: group)
            try host(["signal", "--wait"], in: group)
            try stopProvider(group)
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            let page = NSTemporaryDirectory() + "/cps-report-\(UUID().uuidString).html"
            defer { try? FileManager.default.removeItem(atPath: page) }
            let handle = try #require(FileHandle(forWritingAtPath: paths.syncHistory))
            handle.seekToEndOfFile()
            handle.write(Data(#"{"kind":"sync","ti"#.utf8))
            handle.closeFile()
            let torn = try host(["report", "--html", page], in: group)
            #expect(torn.stderr.contains("\(paths.syncHistory):2: a torn line"), "\(torn)")
            #expect(torn.stdout.contains("1 recorded syncs"), "\(torn)")
            #expect(try host(["doctor"], in: group).exitCode == 0, "a torn line is not a problem")

            try Data("{\"kind\":\"party\",\"time\":1}\n".utf8).write(to: URL(fileURLWithPath: paths.syncHistory))
            let damaged = try host(["report", "--html", page], in: group, expect: 1)
            #expect(damaged.stderr.contains("\(paths.syncHistory):1"), "\(damaged)")
            let doctor = try host(["doctor"], in: group, expect: 1)
            #expect(doctor.output.contains("sync-history.jsonl"), "\(doctor)")
            let repair = try host(["doctor", "--repair"], in: group)
            #expect(repair.output.contains("moved aside:") && repair.output.contains("sync-history.jsonl"), "\(repair)")
            let after = try host(["report", "--html", page], in: group)
            #expect(after.stdout.contains("0 recorded syncs"), "\(after)")
        }
    }
}
