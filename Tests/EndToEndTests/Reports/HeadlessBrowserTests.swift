import Foundation
import TestSupport
import Testing

/// The browser harness itself: the HTML reports' tests trust it to see console messages, network
/// requests and blank screenshots, so each of those is shown to it once on a page that has them.
@Suite("Headless chromium sees a page's console messages, network requests and pixels")
struct HeadlessBrowserTests {
    /// Writes `html` to a file of its own and runs `body` with its path.
    private func withPage<T>(_ html: String, _ body: (String) throws -> T) throws -> T {
        try withTemporaryAppGroup { group in
            let file = group.path + "/page.html"
            try Data(html.utf8).write(to: URL(fileURLWithPath: file))
            return try body(file)
        }
    }

    @Test("A page that logs and fetches is caught: its console message and its request are both reported")
    func faultsAreSeen() throws {
        let html = """
            <!doctype html><html><head><meta charset="utf-8"><title>faulty</title></head><body><p id="here">here</p>
            <img src="http://127.0.0.1:9/picture.png" alt=""><script>console.error("cps-fault")</script></body></html>
            """
        let load = try withPage(html) { try ChromiumTool.load($0) }
        #expect(load.dom.contains(#"<p id="here">here</p>"#), "\(load.dom)")
        #expect(load.consoleMessages.contains { $0.contains("cps-fault") }, "\(load.consoleMessages)")
        #expect(load.networkRequests.contains("http://127.0.0.1:9/picture.png"), "\(load.networkRequests)")
        #expect(ChromiumTool.urls(in: html) == ["http://127.0.0.1:9/picture.png"])
    }

    @Test("A quiet page has no console message and no request; its screenshot has the window's size and pixels")
    func quietPage() throws {
        let html = """
            <!doctype html><html><head><meta charset="utf-8"><title>quiet</title></head>
            <body style="margin:0;background:#fff"><svg width="200" height="100"><rect width="120" height="60" fill="#123456"/></svg></body></html>
            """
        let (load, picture) = try withPage(html) {
            (try ChromiumTool.load($0), try ChromiumTool.screenshot($0, width: 640, height: 480))
        }
        #expect(load.consoleMessages.isEmpty, "\(load.consoleMessages)")
        #expect(load.networkRequests.isEmpty, "\(load.networkRequests)")
        #expect(picture.width == 640 && picture.height == 480)
        #expect(picture.distinctColours >= 2, "the rectangle is not in the screenshot")
        let blank = try withPage("<!doctype html><html><body style=\"background:#fff\"></body></html>") {
            try ChromiumTool.screenshot($0, width: 320, height: 200)
        }
        #expect(blank.distinctColours == 1, "an empty page's screenshot has \(blank.distinctColours) colours")
    }
}
