import AppStores
import Foundation

/// A ``FailureStory``'s steps drawn as a sequence diagram in inline SVG: the app, the system and the
/// provider as lanes, each step an arrow between two of them (a box when a lane acts on its own), the
/// step where the stores diverged in a heavy dashed frame with the words "stores diverge here".
/// An arrow's text that does not fit between two lanes is named there by its call alone
/// (`enumerateChanges(…)`) and written whole, up to ``detailLimit`` characters, in a column right of the
/// provider's lane, on the arrow's row: what a reader compares from row to row — the anchors, the
/// items — is the end of the text. Each arrow's full text is also in its `<title>` (shown on hover).
enum SequenceDiagramSVG {
    static let laneSpacing = 250
    static let left = 200
    static let rowHeight = 28
    static let top = 44
    static let labelLimit = 34
    static let detailLimit = 120
    /// Pixels a character of the detail column takes, at the page's font size.
    static let detailCharacterWidth = 8

    /// The lane's x position.
    static func x(_ lane: FailureStory.Lane) -> Int { left + lane.rawValue * laneSpacing }

    /// The diagram, or nil when the story has no steps.
    static func svg(_ story: FailureStory) -> String? {
        guard !story.steps.isEmpty else { return nil }
        let widest = story.steps.map { min($0.label.count, detailLimit) }.filter { $0 > labelLimit }.max()
        let width = widest.map { detailX + $0 * detailCharacterWidth + 8 } ?? left + 2 * laneSpacing + 160
        let height = top + story.steps.count * rowHeight + 16
        var out =
            "<svg class=\"sequence\" role=\"img\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">"
            + "<title>sequence of the reproduction: \(story.steps.count) steps</title>"
        for lane in FailureStory.Lane.allCases {
            let x = x(lane)
            out +=
                "<text x=\"\(x)\" y=\"18\" text-anchor=\"middle\" font-weight=\"bold\">\(HTMLPage.escape(lane.title))</text>"
            out +=
                "<line x1=\"\(x)\" y1=\"26\" x2=\"\(x)\" y2=\"\(height - 6)\" stroke=\"#777\" stroke-dasharray=\"2 3\"/>"
        }
        for (index, step) in story.steps.enumerated() {
            let y = top + index * rowHeight + rowHeight / 2
            let diverges = index == story.divergence
            if diverges {
                out +=
                    "<rect x=\"4\" y=\"\(y - rowHeight / 2 + 1)\" width=\"\(width - 8)\" height=\"\(rowHeight - 2)\" "
                    + "fill=\"#fde8e8\" stroke=\"#000\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>"
                out += "<text x=\"34\" y=\"\(y + 4)\" font-weight=\"bold\">\u{2717} stores diverge here</text>"
            }
            out += "<g class=\"step\"><title>\(index + 1). \(HTMLPage.escape(step.label))</title>"
            out += "<text x=\"10\" y=\"\(y + 4)\" fill=\"#555\">\(index + 1)</text>"
            out += arrow(step, y: y)
            if step.label.count > labelLimit {
                out +=
                    "<text class=\"detail\" x=\"\(detailX)\" y=\"\(y + 4)\">\(HTMLPage.escape(detail(step.label)))</text>"
            }
            out += "</g>"
        }
        return out + "</svg>"
    }

    /// Where the column of whole texts starts: right of the provider's lane.
    static var detailX: Int { x(.provider) + 24 }

    /// The text beside a lane: whole when it fits, else the call's name (`didUpdate(…)`), or its
    /// start cut with an ellipsis when it names no call.
    static func short(_ label: String) -> String {
        guard label.count > labelLimit else { return label }
        if let open = label.firstIndex(of: "("), label.distance(from: label.startIndex, to: open) < labelLimit - 3 {
            return label[..<open] + "(\u{2026})"
        }
        return String(label.prefix(labelLimit - 1)) + "\u{2026}"
    }

    /// The text in the detail column: whole, or cut at ``detailLimit`` characters with an ellipsis.
    static func detail(_ label: String) -> String {
        label.count > detailLimit ? String(label.prefix(detailLimit - 1)) + "\u{2026}" : label
    }

    /// One step: an arrow with its label above it, or a box on one lane.
    static func arrow(_ step: FailureStory.Step, y: Int) -> String {
        let label = HTMLPage.escape(short(step.label))
        if step.from == step.to {
            let x = x(step.from)
            return "<rect x=\"\(x - 6)\" y=\"\(y - 9)\" width=\"12\" height=\"18\" fill=\"#fff\" stroke=\"#000\"/>"
                + "<text x=\"\(x + 12)\" y=\"\(y + 4)\">\(label)</text>"
        }
        let from = x(step.from)
        let to = x(step.to)
        let direction = to > from ? 1 : -1
        let tip = to - direction * 2
        let back = tip - direction * 9
        return
            "<line x1=\"\(from)\" y1=\"\(y + 6)\" x2=\"\(back)\" y2=\"\(y + 6)\" stroke=\"#000\" stroke-width=\"1.5\"/>"
            + "<polygon points=\"\(tip),\(y + 6) \(back),\(y + 2) \(back),\(y + 10)\" fill=\"#000\"/>"
            + "<text x=\"\(min(from, to) + 8)\" y=\"\(y + 1)\">\(label)</text>"
    }
}
