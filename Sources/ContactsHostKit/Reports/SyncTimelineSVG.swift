import AppStores
import ContactProviderSystem
import Foundation

/// The sync timeline of `report --html` (issue 45): one row per sync, drawn as inline SVG from the
/// domain's sync history, and the same facts as text.
///
/// A row: the outcome as a shape and a word (✓ ok, ✗ failed, ↻ expired → full resync, ◆ reset or
/// disable), then each page (square) and batch (circle) as a mark whose size grows with its item count
/// (a log scale: 1 and 10,000 items both stay visible), then the sync's slowest call as a bar inside a
/// box that is the call limit (R41). Every mark has a `<title>` (shown on hover) with its items, the
/// position it committed and its duration; the text table under the picture says the same. Nothing
/// depends on colour: shape, fill pattern and words carry each meaning.
///
/// Only the newest ``drawnInFull`` syncs are drawn; older ones are summarised in rows of
/// ``summaryBucket`` (counts, outcomes, slowest call), so 1,000 syncs stay readable and the page small.
package enum SyncTimelineSVG {
    /// Syncs drawn in full (the newest).
    package static let drawnInFull = 50
    /// Older syncs per summary row.
    package static let summaryBucket = 50
    /// Marks drawn per row; a sync with more steps says how many more.
    static let marksPerRow = 40
    /// Steps written out per row of the text table (every drawn mark still has its tooltip).
    static let stepsPerTableRow = 12

    static let width = 960
    static let rowHeight = 26
    static let labelWidth = 290
    static let marksWidth = 270
    static let outcomeX = 610
    static let limitBoxX = 760
    static let limitBoxWidth = 160

    /// The timeline's HTML: a heading, the picture of the newest syncs, their text table, and the
    /// summary of older ones. `entries` oldest first; times are shown in UTC.
    package static func html(_ entries: [SyncHistoryEntry], warnings: [String] = []) -> String {
        var out = "<section id=\"timeline\">\n<h2>Sync timeline</h2>\n"
        for warning in warnings { out += "<p class=\"note\">warning: \(HTMLPage.escape(warning))</p>\n" }
        guard !entries.isEmpty else {
            return out
                + "<p class=\"note\">No sync has been recorded yet (idle syncs are not recorded).</p>\n</section>\n"
        }
        let syncs = entries.filter { $0.kind == .sync }.count
        let resets = entries.filter { $0.kind == .reset }.count
        let disables = entries.count - syncs - resets
        out +=
            "<p>\(entries.count) recorded (\(counted(syncs, "sync")), \(counted(resets, "reset")), \(counted(disables, "disable")))"
        let older = max(0, entries.count - drawnInFull)
        out += older > 0 ? "; the newest \(drawnInFull) drawn, the \(older) older summarised below.</p>\n" : ".</p>\n"
        let drawn = Array(entries.suffix(drawnInFull))
        out += svg(drawn, firstNumber: older + 1)
        out += table(drawn, firstNumber: older + 1)
        if older > 0 { out += summary(Array(entries.prefix(older))) }
        return out + "</section>\n"
    }

    /// The picture of `entries`, numbered from `firstNumber`.
    package static func svg(_ entries: [SyncHistoryEntry], firstNumber: Int) -> String {
        let height = (entries.count + 1) * rowHeight + 8
        var out = """
            <svg role="img" aria-label="sync timeline" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">
            <defs><pattern id="hatch" width="4" height="4" patternUnits="userSpaceOnUse"><path d="M0 4L4 0" stroke="#000" stroke-width="1"/></pattern></defs>
            <text x="4" y="16" font-weight="bold">sync (UTC)</text><text x="\(labelWidth)" y="16" font-weight="bold">pages ■ / batches ● (size: items)</text><text x="\(outcomeX)" y="16" font-weight="bold">outcome</text><text x="\(limitBoxX)" y="16" font-weight="bold">slowest call / limit</text>

            """
        for (index, entry) in entries.enumerated() {
            out += row(entry, number: firstNumber + index, y: (index + 1) * rowHeight + 4)
        }
        return out + "</svg>\n"
    }

    /// One row.
    static func row(_ entry: SyncHistoryEntry, number: Int, y: Int) -> String {
        let middle = y + rowHeight / 2
        var out = "<g class=\"row \(entry.kind.rawValue)\">"
        let label = "#\(number) \(time(entry.time))"
        out += "<title>\(HTMLPage.escape(describe(entry, number: number)))</title>"
        switch entry.kind {
        case .reset, .disable:
            // A diamond and a dashed rule across the row: the system store was emptied here.
            out += diamond(x: 12, y: middle)
            out += "<text x=\"24\" y=\"\(middle + 4)\">\(HTMLPage.escape(label)) \(entry.kind.rawValue)</text>"
            out +=
                "<line x1=\"\(labelWidth)\" y1=\"\(middle)\" x2=\"\(width - 8)\" y2=\"\(middle)\" stroke=\"#000\" stroke-dasharray=\"6 4\"/>"
            out +=
                "<text x=\"\(labelWidth + 8)\" y=\"\(middle - 3)\">\(entry.kind == .reset ? "reset: system store emptied (R9)" : "disabled: system store emptied (R8)")</text>"
            return out + "</g>\n"
        case .sync:
            break
        }
        out += outcomeShape(entry, x: 12, y: middle)
        out += "<text x=\"24\" y=\"\(middle + 4)\">\(HTMLPage.escape(label)) \(entry.enumeration ?? "")</text>"
        var x = Double(labelWidth)
        let spacing = max(6.0, min(22.0, Double(marksWidth) / Double(max(1, entry.steps.count))))
        for (index, step) in entry.steps.prefix(marksPerRow).enumerated() {
            let size = markSize(step.updated + step.deleted)
            let centre = x + spacing / 2
            out += "<g class=\"step\"><title>\(HTMLPage.escape(describe(step, index: index + 1)))</title>"
            if step.expired != nil {
                // The word is in the title and the outcome column; inline it would cover the next marks.
                out += cross(x: centre, y: Double(middle), size: 7)
            } else if step.kind == "page" {
                out +=
                    "<rect x=\(f(centre - size / 2)) y=\(f(Double(middle) - size / 2)) width=\(f(size)) height=\(f(size)) fill=\"#333\"/>"
            } else {
                out +=
                    "<circle cx=\(f(centre)) cy=\"\(middle)\" r=\(f(size / 2)) fill=\"#fff\" stroke=\"#000\" stroke-width=\"1.5\"/>"
            }
            out += "</g>"
            x += spacing
        }
        let more = max(0, entry.steps.count - marksPerRow) + (entry.omittedSteps ?? 0)
        if more > 0 { out += "<text x=\"\(labelWidth + marksWidth + 4)\" y=\"\(middle + 4)\">+\(more)</text>" }
        out += "<text x=\"\(outcomeX)\" y=\"\(middle + 4)\">\(HTMLPage.escape(shortOutcome(entry)))</text>"
        out += limitBar(entry, y: y)
        return out + "</g>\n"
    }

    /// The slowest call as a bar in a box that is the limit; a call over half the limit is hatched.
    static func limitBar(_ entry: SyncHistoryEntry, y: Int) -> String {
        let slowest = entry.steps.map(\.milliseconds).max() ?? 0
        let limit = entry.callLimitMs ?? 10_000
        let fraction = limit > 0 ? min(1, slowest / limit) : 0
        let barWidth = max(1, fraction * Double(limitBoxWidth))
        var out = "<g class=\"limit\"><title>slowest call \(ms(slowest)) of the \(ms(limit)) limit (R41)</title>"
        out +=
            "<rect x=\"\(limitBoxX)\" y=\"\(y + 6)\" width=\"\(limitBoxWidth)\" height=\"12\" fill=\"none\" stroke=\"#000\"/>"
        out +=
            "<rect x=\"\(limitBoxX)\" y=\"\(y + 6)\" width=\(f(barWidth)) height=\"12\" fill=\"\(fraction > 0.5 ? "url(#hatch)" : "#555")\"/>"
        out += "<text x=\"\(limitBoxX + limitBoxWidth + 4)\" y=\"\(y + 17)\">\(percent(fraction))</text></g>"
        return out
    }

    /// ✓ a tick, ✗ a cross, ↻ a triangle for an expiry's full resync.
    static func outcomeShape(_ entry: SyncHistoryEntry, x: Int, y: Int) -> String {
        if entry.error != nil { return cross(x: Double(x), y: Double(y), size: 8) }
        if entry.restarted == true {
            return
                "<path d=\"M\(x - 6) \(y + 5)L\(x) \(y - 6)L\(x + 6) \(y + 5)Z\" fill=\"url(#hatch)\" stroke=\"#000\"/>"
        }
        return
            "<path d=\"M\(x - 6) \(y)L\(x - 2) \(y + 5)L\(x + 6) \(y - 6)\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"/>"
    }

    static func cross(x: Double, y: Double, size: Double) -> String {
        let h = size / 2
        return
            "<path d=\"M\(n(x - h)) \(n(y - h))L\(n(x + h)) \(n(y + h))M\(n(x - h)) \(n(y + h))L\(n(x + h)) \(n(y - h))\" stroke=\"#000\" stroke-width=\"2.5\"/>"
    }

    static func diamond(x: Int, y: Int) -> String {
        "<path d=\"M\(x) \(y - 7)L\(x + 7) \(y)L\(x) \(y + 7)L\(x - 7) \(y)Z\" fill=\"#000\"/>"
    }

    /// A mark's side: 4 px for an empty step, growing with log₂ of the items, at most 20 px.
    static func markSize(_ items: Int) -> Double {
        min(20, 4 + 1.6 * log2(Double(items) + 1))
    }

    /// The text table of the drawn syncs: every count, position and duration as words.
    static func table(_ entries: [SyncHistoryEntry], firstNumber: Int) -> String {
        var out = "<table class=\"syncs\"><tr><th>#</th><th>started (UTC)</th><th>kind</th><th>outcome</th>"
        out +=
            "<th>contacts</th><th>deleted</th><th>pages / batches (items → position, call time)</th><th>after</th></tr>\n"
        for (index, entry) in entries.enumerated() {
            let number = firstNumber + index
            let outcome = Self.outcome(entry)
            let rowClass =
                entry.error != nil
                ? " class=\"fail\"" : (entry.kind != .sync || entry.restarted == true ? " class=\"warn\"" : "")
            out += "<tr\(rowClass)><td class=\"num\">\(number)</td><td>\(time(entry.time))</td>"
            out += "<td>\(entry.kind == .sync ? entry.enumeration ?? "sync" : entry.kind.rawValue)</td>"
            out += "<td>\(HTMLPage.escape(outcome))</td>"
            out +=
                "<td class=\"num\">\(entry.updated.map(String.init) ?? "")</td><td class=\"num\">\(entry.deleted.map(String.init) ?? "")</td><td>"
            // A marker repeated step after step is written once: later steps show `(…, offset)`.
            var previous: String?
            let shown = entry.steps.prefix(stepsPerTableRow).enumerated().map { index, step in
                var short = step
                short.position = step.position.map { shortened($0, after: previous) }
                previous = step.position ?? previous
                return HTMLPage.escape(describe(short, index: index + 1))
            }
            out += shown.joined(separator: "; ")
            let more = max(0, entry.steps.count - stepsPerTableRow) + (entry.omittedSteps ?? 0)
            if more > 0 { out += "; … and \(more) more" }
            out += "</td><td>\(HTMLPage.escape(entry.position ?? ""))</td></tr>\n"
        }
        return out + "</table>\n"
    }

    /// Older syncs in rows of ``summaryBucket``: how many, how they ended, how much they moved.
    static func summary(_ entries: [SyncHistoryEntry]) -> String {
        var out = "<h3>Older syncs, summarised</h3>\n<table class=\"summary\"><tr><th>syncs</th><th>from (UTC)</th>"
        out += "<th>ok</th><th>failed</th><th>expired → full resync</th><th>resets / disables</th><th>contacts</th>"
        out += "<th>deleted</th><th>slowest call</th><th>outcomes (✓ ok ✗ failed ↻ resync ◆ reset)</th></tr>\n"
        var start = 0
        while start < entries.count {
            let bucket = entries[start..<min(entries.count, start + summaryBucket)]
            let syncs = bucket.filter { $0.kind == .sync }
            let failed = syncs.filter { $0.error != nil }.count
            let restarted = syncs.filter { $0.restarted == true && $0.error == nil }.count
            let slowest = syncs.flatMap { $0.steps.map(\.milliseconds) }.max() ?? 0
            let glyphs = bucket.map { entry -> String in
                if entry.kind != .sync { return "◆" }
                if entry.error != nil { return "✗" }
                return entry.restarted == true ? "↻" : "✓"
            }.joined()
            out += "<tr><td>\(start + 1)–\(start + bucket.count)</td><td>\(time(bucket.first!.time))</td>"
            out += "<td class=\"num\">\(syncs.count - failed - restarted)</td><td class=\"num\">\(failed)</td>"
            out += "<td class=\"num\">\(restarted)</td><td class=\"num\">\(bucket.count - syncs.count)</td>"
            out += "<td class=\"num\">\(syncs.reduce(0) { $0 + ($1.updated ?? 0) })</td>"
            out +=
                "<td class=\"num\">\(syncs.reduce(0) { $0 + ($1.deleted ?? 0) })</td><td class=\"num\">\(ms(slowest))</td>"
            out += "<td><code>\(glyphs)</code></td></tr>\n"
            start += summaryBucket
        }
        return out + "</table>\n"
    }

    /// The outcome in at most 20 characters, for the picture's outcome column.
    static func shortOutcome(_ entry: SyncHistoryEntry) -> String {
        if let error = entry.error {
            let what = "✗ " + (error.code ?? error.rule ?? "failed")
            return what.count > 20 ? String(what.prefix(19)) + "…" : what
        }
        return entry.restarted == true ? "↻ expired: resync" : "✓ ok"
    }

    /// The outcome in words.
    static func outcome(_ entry: SyncHistoryEntry) -> String {
        switch entry.kind {
        case .reset: return "◆ reset: the system store was emptied (R9)"
        case .disable: return "◆ disabled: the system store was emptied (R8)"
        case .sync: break
        }
        if let error = entry.error {
            return "✗ failed: " + [error.code, error.rule].compactMap { $0 }.joined(separator: " ") + ": "
                + error.message
        }
        let expired = entry.steps.compactMap(\.expired).first ?? "expired"
        return entry.restarted == true ? "↻ \(expired) → full resync (R27, R38)" : "✓ ok"
    }

    /// A sync in one sentence (its row's `<title>`).
    static func describe(_ entry: SyncHistoryEntry, number: Int) -> String {
        var text =
            "#\(number) \(time(entry.time)) \(entry.kind == .sync ? entry.enumeration ?? "" : entry.kind.rawValue): "
        text += outcome(entry)
        if entry.kind == .sync {
            text += "; \(counted(entry.updated ?? 0, "contact")), \(entry.deleted ?? 0) deleted in "
            text += "\(counted(entry.steps.count + (entry.omittedSteps ?? 0), "step")), "
            text += "\(ms(entry.durationMs ?? 0)); system holds \(entry.systemCount ?? 0)"
            if let position = entry.position { text += "; now at \(position)" }
        }
        return text
    }

    /// A step in words: `page 2: 3 contacts → next page ("m", 4), 1.2 ms`.
    static func describe(_ step: SyncHistoryEntry.Step, index: Int) -> String {
        var text = "\(step.kind) \(index): \(counted(step.updated, "contact"))"
        if step.deleted > 0 { text += ", \(step.deleted) deleted" }
        if let expired = step.expired {
            text += " → \(expired)"
        } else if let position = step.position {
            text += step.kind == "page" ? " → \(position)" : " → anchor \(position)"
        } else {
            text += " (nothing committed)"
        }
        return text + ", \(ms(step.milliseconds))"
    }

    /// `(…, 4)` for `("m", 4)` when `previous` had the same marker (`("m", 2)`); else `position`.
    static func shortened(_ position: String, after previous: String?) -> String {
        guard let previous, let comma = position.range(of: ", ", options: .backwards),
            let previousComma = previous.range(of: ", ", options: .backwards),
            position[..<comma.lowerBound] == previous[..<previousComma.lowerBound]
        else { return position }
        return "(…, " + position[comma.upperBound...]
    }

    static func time(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    static func ms(_ milliseconds: Double) -> String {
        milliseconds >= 1000 ? String(format: "%.2f s", milliseconds / 1000) : String(format: "%.1f ms", milliseconds)
    }

    static func percent(_ fraction: Double) -> String { String(format: "%.0f%%", fraction * 100) }

    /// A coordinate, quoted, with one decimal (an attribute's value).
    static func f(_ value: Double) -> String { "\"" + n(value) + "\"" }

    /// A coordinate with one decimal (inside a path).
    static func n(_ value: Double) -> String { String(format: "%.1f", value) }

    /// `1 contact`, `2 contacts`.
    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}
