// The reports of `signal`, `step` and `status`, as JSON and text, apart from the commands that print
// them: three commands share them, and their shapes are what scripts read (declared in
// SignalOptions.reportShape and SystemCommands.statusJSON, checked by Tests/Fixtures/JSON).
import AppGroupStore
import CommandLineToolkit
import ContactProviderSystem
import Foundation

/// A page or anchor in JSON: the marker base64-encoded.
struct PositionJSON: Codable, Equatable {
    var generationMarker: String
    var offset: Int

    init(_ position: SyncPosition) {
        generationMarker = position.generationMarker.base64EncodedString()
        offset = position.offset
    }
}

/// `signal --wait --json`.
struct ReportJSON: Codable {
    var enumeration: String
    var pages: Int
    var batches: Int
    var updated: Int
    var deleted: Int
    var systemCount: Int
    var anchor: PositionJSON?
    var nextPage: PositionJSON?
    var durationMs: Double
    var restarted: Bool
    var error: SyncReport.ReportedError?
    var warnings: [String]?
    var transcript: [String]?

    init(_ report: SyncReport, transcript: [String]?) {
        enumeration = report.enumeration
        pages = report.pages
        batches = report.batches
        updated = report.updated
        deleted = report.deleted
        systemCount = report.systemCount
        anchor = report.anchor.map(PositionJSON.init)
        nextPage = report.nextPage.map(PositionJSON.init)
        durationMs = (report.durationMs * 100).rounded() / 100
        restarted = report.restarted
        error = report.error
        warnings = report.warnings.isEmpty ? nil : report.warnings
        self.transcript = transcript
    }

    /// `value` with one decimal, as `%.1f` prints it. By hand: `String(format:)` cost every
    /// `signal --wait` a tenth of a millisecond of first-use work (issue 27).
    static func oneDecimal(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return String(format: "%.1f", value) }
        let tenths = Int64((abs(value) * 10).rounded(.toNearestOrEven))
        return (value < 0 && tenths != 0 ? "-" : "") + String(tenths / 10) + "." + String(tenths % 10)
    }

    static func text(_ report: SyncReport) -> String {
        var lines = [
            "\(report.enumeration) enumeration: \(counted(report.pages, "page")), \(counted(report.batches, "batch", plural: "batches")), \(report.updated) updated, \(report.deleted) deleted"
                + (report.restarted ? " (restarted after expiry)" : ""),
            "system store: \(counted(report.systemCount, "contact"))",
        ]
        if let anchor = report.anchor { lines.append("anchor: \(anchor)") }
        if let next = report.nextPage { lines.append("next page: \(next)") }
        lines.append("duration: \(oneDecimal(report.durationMs)) ms")
        lines += report.warnings.map { "warning: \($0)" }
        if let error = report.error { lines.append("error: \(error.message)") }
        return lines.joined(separator: "\n")
    }
}

/// `status --json`.
struct StatusJSON: Codable {
    /// The App Group directory in use.
    var appGroup: String
    /// Where that choice came from: "flag", "environment" or "default".
    var appGroupSource: String
    var domain: String
    var enabled: Bool
    var extensionPath: String?
    var providerRunning: Bool
    var providerPID: Int32?
    /// Which build the running provider executes, against the registered executable (nil: none runs).
    var providerBuild: String?
    var pageSize: Int
    var batchSize: Int
    var phase: String
    var nextPage: PositionJSON?
    var anchor: PositionJSON?
    /// The app's store's contacts (nil: a CardDAV store, which the host does not read).
    var appCount: Int?
    /// The app's store, as `enable --backend` names it (`app-database` by default).
    var store: String
    var systemCount: Int
    var lastSync: ReportJSON?

    /// `current build (inode N, built …)`, or what makes it stale; nil when no provider runs.
    static func buildText(_ build: SystemClient.ServingBuild) -> String? {
        switch build {
        case .none: return nil
        case .current(_, let build): return "current build (\(build))"
        case .stale(_, let running, _):
            return "an older build (\(running)) than the registered executable: the next signal launches the new one"
        case .unknown: return "build not comparable (no registered executable, or /proc unreadable)"
        }
    }

    var text: String {
        let source = AppGroup.Source(rawValue: appGroupSource)?.explanation ?? appGroupSource
        var lines = [
            "App Group: \(appGroup) (\(source))",
            "domain: \(domain) (\(enabled ? "enabled" : "disabled"))",
            "provider: \(extensionPath ?? "none registered")",
            "provider process: \(providerRunning ? "running" + (providerPID.map { " (pid \($0))" } ?? "") : "not running")"
                + (providerBuild.map { ", \($0)" } ?? ""),
            "page size: \(pageSize), batch size: \(batchSize)",
        ]
        if phase == "content" {
            lines.append(
                "next sync: content enumeration from \(nextPage.map { $0.generationMarker.isEmpty ? "the initial page" : "offset \($0.offset)" } ?? "the initial page")"
            )
        } else {
            lines.append("next sync: changes from anchor offset \(anchor?.offset ?? 0)")
        }
        let appStore = store == "app-database" ? "app database" : "app store (\(store))"
        lines.append("\(appStore): \(appCount.map { counted($0, "contact") } ?? "not read here (a CardDAV server)")")
        lines.append("system store: \(counted(systemCount, "contact"))")
        if let difference = StoreDifference.statusLine(appCount: appCount, systemCount: systemCount, lastSync: lastSync)
        {
            lines.append(difference)
        }
        if let lastSync {
            lines.append(
                "last sync: \(lastSync.enumeration), \(lastSync.updated) updated, \(lastSync.deleted) deleted"
                    + (lastSync.error.map { ", failed: \($0.message)" } ?? ", ok"))
        } else {
            lines.append("last sync: never")
        }
        return lines.joined(separator: "\n")
    }
}
