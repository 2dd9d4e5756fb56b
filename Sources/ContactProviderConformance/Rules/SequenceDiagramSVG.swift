import AppStores
import Foundation

/// A ``FailureStory``'s steps drawn as a sequence diagram in inline SVG: the app, the system and the
/// provider as lanes, each step an arrow between two of them (a box when a lane acts on its own), the
/// step where the stores diverged in a heavy dashed frame with the words "stores diverge here".
/// Each arrow's full text is in its `<title>` (shown on hover) and, cut to fit, beside it.
enum SequenceDiagramSVG {
    static let laneSpacing = 250
    static let left = 200
    static let rowHeight = 28
    static let top = 44
    static let labelLimit = 34

    /// The lane's x position.
    static func x(_ lane: FailureStory.Lane) -> Int { left + lane.rawValue * laneSpacing }

    /// The diagram, or nil when the story has no steps.
    static func svg(_ story: FailureStory) -> String? {
        guard !story.steps.isEmpty else { return nil }
        let width = left + 2 * laneSpacing + 160
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
            out += "</g>"
        }
        return out + "</svg>"
    }

    /// One step: an arrow with its label above it, or a box on one lane.
    static func arrow(_ step: FailureStory.Step, y: Int) -> String {
        let label = HTMLPage.escape(
            step.label.count > labelLimit ? String(step.label.prefix(labelLimit - 1)) + "\u{2026}" : step.label)
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
