import Foundation

/// Debian's `chromium`, run headless: the real browser the HTML reports' tests load pages in (issue 45).
///
/// Each run gets a profile directory of its own (parallel tests never share Chromium's profile lock)
/// and Chromium's own background traffic turned off, so every network request its log shows was made
/// by the page.
package enum ChromiumTool {
    /// The Debian package, which is also the command's name.
    package static let package = "chromium"

    /// The path of `chromium`, installing it first if needed.
    package static func path() throws -> String {
        try DebianTestTool.path(of: package)
    }

    /// What a headless run of one page showed.
    package struct PageLoad: Sendable {
        /// The DOM after the page loaded, serialised (`--dump-dom`).
        package var dom: String
        /// Every message the page wrote to the console (an error, a log line or an uncaught exception):
        /// the reports have no script that logs, so any message is a fault.
        package var consoleMessages: [String]
        /// Every URL the browser asked the network for while the page loaded (file: URLs excluded).
        package var networkRequests: [String]
        /// Wall time of the load, in seconds.
        package var seconds: Double
    }

    /// Why a run of Chromium failed.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The flags of every run: headless without a sandbox (the tests run as root), no GPU, and none of
    /// Chromium's own network traffic (component updates, sync, first-run pings).
    static func flags(profile: String) -> [String] {
        [
            "--no-sandbox", "--headless=new", "--disable-gpu", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-extensions",
            "--user-data-dir=\(profile)", "--enable-logging=stderr", "--v=1",
        ]
    }

    /// Loads `file` (a path) headless and returns its DOM, console messages and network requests.
    package static func load(_ file: String) throws -> PageLoad {
        try withProfile { profile in
            let started = Date()
            let result = try ProcessRunner.run(try path(), flags(profile: profile) + ["--dump-dom", url(of: file)])
            guard result.exitCode == 0, !result.stdout.isEmpty else {
                throw Failure(description: "chromium --dump-dom \(file) failed: \(result.exitCode): \(result.stderr)")
            }
            return PageLoad(
                dom: result.stdout, consoleMessages: consoleMessages(in: result.stderr),
                networkRequests: networkRequests(in: result.stderr), seconds: Date().timeIntervalSince(started))
        }
    }

    /// A PNG screenshot of `file` in a `width` × `height` window.
    package static func screenshot(_ file: String, width: Int, height: Int) throws -> PNGImage {
        try withProfile { profile in
            let image = profile + "/screenshot.png"
            let result = try ProcessRunner.run(
                try path(),
                flags(profile: profile) + ["--screenshot=\(image)", "--window-size=\(width),\(height)", url(of: file)])
            guard result.exitCode == 0, let data = FileManager.default.contents(atPath: image) else {
                throw Failure(
                    description: "chromium --screenshot of \(file) failed: \(result.exitCode): \(result.stderr)")
            }
            return try PNGImage(data)
        }
    }

    /// The `file://` URL of `path`.
    static func url(of path: String) -> String { URL(fileURLWithPath: path).absoluteString }

    /// The console lines of Chromium's log (`INFO:CONSOLE(…)] "message", source: …`).
    static func consoleMessages(in log: String) -> [String] {
        log.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
    }

    /// The URLs of Chromium's log's network requests (`NotifyBeforeURLRequest: URL`), but file: ones.
    static func networkRequests(in log: String) -> [String] {
        log.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "NotifyBeforeURLRequest: ") else { return nil }
            let url = String(line[range.upperBound...])
            if url.hasPrefix("file:") { return nil }
            let host = URL(string: url)?.host ?? ""
            return chromiumServiceHosts.contains { host == $0 || host.hasSuffix("." + $0) } ? nil : url
        }
    }

    /// Hosts Chromium itself calls however it is started (clock, account and update checks from the
    /// browser process, which no flag turns off entirely): not the page's requests. A page's own
    /// URLs are also looked for in its source (``urls(in:)``), where none of these could hide.
    static let chromiumServiceHosts = ["google.com", "googleapis.com", "gvt1.com"]

    /// Every `http:` or `https:` URL written in `source` (an HTML page must have none to be self-contained).
    package static func urls(in source: String) -> [String] {
        source.matches(of: /https?:\/\/[^\s"'<>)]*/).map { String($0.output) }
    }

    /// Runs `body` with a fresh profile directory, removed afterwards.
    private static func withProfile<T>(_ body: (String) throws -> T) throws -> T {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cps-chromium-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: profile) }
        return try body(profile)
    }
}
