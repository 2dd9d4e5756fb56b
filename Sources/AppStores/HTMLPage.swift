import Foundation

/// The frame of the simulator's self-contained HTML pages (`conformance --html`, `report --html`):
/// escaping, one inline style sheet, and the page around a body (issue 45).
///
/// Here because it is the lowest module both the kit and the host's commands link (Foundation only).
/// A page holds no URL at all: no fonts, scripts, images or links to fetch, so it opens the same from
/// a CI artifact, an e-mail or a laptop offline. Meaning is carried by text and shapes (a word or a
/// symbol beside every colour), so the page reads in grey too.
package enum HTMLPage {
    /// `text` with the characters HTML gives meaning to escaped, for text and attribute values alike.
    package static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// The page: `title` in the head and as the first heading, the style sheet, `body`, and, when given,
    /// when it was made (the only part of a page that differs between two runs on the same input).
    package static func document(title: String, generatedAt: Date?, body: String) -> String {
        head(title: title, generatedAt: generatedAt) + body + foot
    }

    /// A page's start, up to and with its first heading and when it was made: a page written in pieces
    /// (`report --html` streams its body) is ``head(title:generatedAt:extraStyle:)``, the body, ``foot``.
    /// `extraStyle` is appended to the style sheet for that page's own pictures.
    package static func head(title: String, generatedAt: Date?, extraStyle: String = "") -> String {
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <style>
            \(styleSheet)\(extraStyle.isEmpty ? "" : "\n" + extraStyle)
            </style>
            </head>
            <body>
            <h1>\(escape(title))</h1>

            """
        if let generatedAt {
            page += "<p class=\"made\">Made \(escape(ISO8601DateFormatter().string(from: generatedAt)))</p>\n"
        }
        return page
    }

    /// A page's end.
    package static let foot = "</body>\n</html>\n"

    /// One style sheet for every page: system fonts only; failures are bold with a symbol and a
    /// border style as well as a colour.
    static let styleSheet = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em;color:#1b1b1b;background:#fff}
        h1{font-size:1.5em;margin:0 0 .3em}h2{font-size:1.2em;margin:1.4em 0 .4em;border-bottom:1px solid #999}
        h3{font-size:1.05em;margin:1em 0 .3em}
        .made{color:#555;font-size:.9em;margin:0 0 1em}
        .verdict{font-size:1.15em;font-weight:bold;padding:.5em .8em;border:3px solid #333;display:inline-block}
        .verdict.failed{border-style:double;background:#fde8e8}.verdict.passed{background:#e8f6ea}
        table{border-collapse:collapse;margin:.4em 0}th,td{border:1px solid #bbb;padding:.2em .5em;text-align:left;vertical-align:top}
        th{background:#f0f0f0}td.num{text-align:right;font-variant-numeric:tabular-nums}
        tr.fail td{font-weight:bold;background:#fde8e8}tr.warn td{font-style:italic;background:#fff6dd}
        .status-fail::before{content:"\\2717 "}.status-pass::before{content:"\\2713 "}.status-warn::before{content:"! "}
        .status-skipped::before,.status-not-selected::before{content:"\\2013 "}
        pre,code{font:12.5px/1.4 ui-monospace,"DejaVu Sans Mono",monospace}
        pre{background:#f5f5f5;border:1px solid #ccc;padding:.5em;white-space:pre-wrap;word-break:break-all}
        pre.reproduce{border-left:4px solid #333;user-select:all}
        .group{border:2px solid #666;padding:.3em 1em 1em;margin:1em 0}
        .finding{border-top:1px dashed #888;margin-top:.8em;padding-top:.3em}
        .side{display:flex;gap:1em;flex-wrap:wrap}.side>div{flex:1 1 20em;min-width:16em}
        .card{border:1px solid #999;border-radius:6px;padding:.4em .7em;margin:.3em 0;background:#fafafa}
        .card.differs{border:2px dashed #000;background:#fff3f3}.card.missing{border:2px dotted #000;opacity:.8}
        .card dt{font-size:.8em;color:#555}.card dd{margin:0 0 .2em}
        svg text{font:12px ui-monospace,"DejaVu Sans Mono",monospace}figure{overflow-x:auto}
        .note{color:#444;font-style:italic}
        .section-letter{font-weight:bold;background:#eee;padding:0 .5em;margin-top:.5em}
        """
}
