import AppGroupStore
import AppStores
import CommandLineToolkit
import ContactProviderSystem
import Foundation
import Glibc

/// `contacts-host report --html FILE`: one self-contained page of the App Group's domain (issue 45):
/// the sync timeline from the domain's sync history, and the device's Contacts list as iOS lays it
/// out with the app's store beside it and the differences marked.
enum ReportCommand {
    static let html = Option<String>(
        "--html", value: "FILE", required: true,
        help: "Write the page to FILE (replaced atomically; its directory must exist and be writable).",
        convert: { text, name in
            guard !text.isEmpty else { throw UsageError("option '\(name)' expects a file name, got ''") }
            let directory = (text as NSString).deletingLastPathComponent
            let parent = directory.isEmpty ? "." : directory
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: text, isDirectory: &isDirectory), isDirectory.boolValue {
                throw UsageError("option '\(name)': '\(text)' is a directory, not a file")
            }
            guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue
            else { throw UsageError("option '\(name)': the directory '\(parent)' of '\(text)' does not exist") }
            guard access(parent, W_OK) == 0 else {
                throw UsageError("option '\(name)': the directory '\(parent)' of '\(text)' is not writable")
            }
            return text
        })

    static let command = Command(
        ["report"],
        summary: "Write one self-contained HTML page: the sync timeline and the Contacts list as iOS shows it.",
        discussion: """
            The timeline draws one row per recorded sync from domains/<domain>/sync-history.jsonl (the last \
            \(SyncHistoryFile.defaultKeep) kept): each page (square) and batch (circle) sized by its items, \
            the slowest call against the call limit (R41), failures, expiries (a full resync) and resets or \
            disables as shapes and words; positions and times are in each mark's tooltip and in the table \
            under it. The newest \(SyncTimelineSVG.drawnInFull) are drawn, older ones summarised by \
            \(SyncTimelineSVG.summaryBucket). The Contacts list is the system's contacts of the domain under \
            its display name, in sections by letter in the user's sort order (family name), with the app's \
            store beside it: a contact only on one side or with different fields is marked in words and by \
            its card's border. At most \(ContactListHTML.cardsPerSection) cards per section and side are \
            drawn (the rest are counted). The device's own contacts (device add) follow as a list of \
            their own. The page holds no URL, script or font to fetch: it opens offline, \
            and reads without colour. Only FILE is written; the App Group is read.
            """,
        options: [html],
        examples: [
            "contacts-host report --html report.html",
            "contacts-host report --html /tmp/ag-report.html --app-group /tmp/AG",
        ],
        environment: ["CONTACT_PROVIDER_APP_NAME"],
        exitCodes: [
            ExitCodeHelp(0, "the page was written"),
            ExitCodeHelp(1, "the App Group could not be read or the page could not be written"),
            ExitCodeHelp(2, "usage error: nothing was written"),
        ],
        run: { arguments, context in
            guard let file = try arguments.value(html) else { throw UsageError("missing option '--html FILE'") }
            let paths = try DomainPaths(appGroup: context.appGroup, domain: DomainManager.defaultDomainIdentifier)
            let report = try ReportPage.load(paths: paths, context: context)
            for warning in report.historyWarnings { context.output.err("warning: \(warning)") }
            let size: Int
            do {
                size = try report.write(to: file, generatedAt: Date())
            } catch {
                throw CommandFailure("--html \(file): cannot write the page (\(HostTool.describe(error)))")
            }
            context.output.out(
                "wrote \(file) (\(size) bytes): \(report.history.count) recorded syncs, "
                    + "\(report.list.system.count) system contacts, \(report.list.app.map { String($0.count) } ?? "unreadable") in the app's store"
            )
            return ExitCode.success
        })
}

/// What `report --html` shows, read from the App Group, and how it is written.
struct ReportPage {
    /// The domain's display name (the name iOS shows above its contacts).
    var displayName: String
    /// The App Group's path, for the page's header.
    var appGroupPath: String
    /// The sync history, oldest first.
    var history: [SyncHistoryEntry]
    /// Torn lines of the history (warnings, not errors).
    var historyWarnings: [String]
    /// The two sides of the Contacts list.
    var list: ContactListHTML
    /// The device's own contacts, or nil when they could not be read (a warning says why).
    var device: [ContactRecord]?

    /// Reads the domain at `paths`: configuration, history, the system's and the app's contacts.
    static func load(paths: DomainPaths, context: CommandContext) throws -> ReportPage {
        let configuration = try DomainConfiguration.load(from: paths.configuration)
        let contents = try SyncHistoryFile.read(paths.syncHistory)
        let system = try SystemStore(directory: paths.systemStore).load().contacts
        // The app's store, wherever `enable --backend` put it; unreadable is said on the page, not fatal.
        let app: [ContactRecord]?
        do {
            app = try DomainAppStore.other(context)?.contacts() ?? AppDatabase(appGroup: context.appGroup).all()
        } catch {
            context.output.err("warning: the app's store could not be read: \(HostTool.describe(error))")
            app = nil
        }
        let device: [ContactRecord]?
        do {
            device = try DeviceContacts(appGroup: context.appGroup).contents().contacts
        } catch {
            context.output.err("warning: the device's own contacts could not be read: \(HostTool.describe(error))")
            device = nil
        }
        return ReportPage(
            displayName: displayName(configuration: configuration, appGroup: context.appGroup),
            appGroupPath: context.appGroup.path, history: contents.entries, historyWarnings: contents.warnings,
            list: ContactListHTML(system: system, app: app), device: device)
    }

    /// `CONTACT_PROVIDER_APP_NAME`, else the containing app's name from the provider's bundle, else the
    /// App Group folder's name: what `DefaultContactProviderDomain.displayName` answers in the provider (R14).
    static func displayName(configuration: DomainConfiguration, appGroup: AppGroup) -> String {
        if let name = ProcessInfo.processInfo.environment["CONTACT_PROVIDER_APP_NAME"], !name.isEmpty { return name }
        if let executable = configuration.extensionPath,
            let info = ExecutableBundle.containingAppInfo(
                ofBundle: ExecutableBundle.directory(forExecutable: executable)),
            let name = (info["CFBundleDisplayName"] as? String) ?? (info["CFBundleName"] as? String)
        {
            return name
        }
        return (appGroup.path as NSString).lastPathComponent
    }

    /// Writes the page to `file` in chunks; returns its size in bytes.
    func write(to file: String, generatedAt: Date?) throws -> Int {
        let page = try HTMLPageWriter(path: file)
        do {
            try page.write(
                HTMLPage.head(
                    title: "Contacts report: \(displayName)", generatedAt: generatedAt, extraStyle: Self.style))
            try page.write(
                "<p>App Group <code>\(HTMLPage.escape(appGroupPath))</code>, domain <code>\(DomainManager.defaultDomainIdentifier)</code>.</p>\n"
            )
            try page.write(SyncTimelineSVG.html(history, warnings: historyWarnings))
            try list.write(displayName: displayName, to: page)
            if let device { try ContactListHTML.writeDeviceList(device, to: page) }
            try page.write(HTMLPage.foot)
            try page.finish()
        } catch {
            page.abandon()
            throw error
        }
        return page.bytesWritten
    }

    /// The report's own rules, after the shared style sheet.
    static let style = """
        .index a{margin-right:.2em}.mark{font-weight:bold;margin-left:.4em}
        table.syncs td,table.summary td{font-size:.9em}
        .card dl{margin:.2em 0 0;display:grid;grid-template-columns:max-content 1fr;gap:0 .8em}
        .card dt{font-size:.8em;color:#555;padding-top:.15em}
        section{margin-bottom:2em}
        """
}
