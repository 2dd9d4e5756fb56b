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

    /// The position again (nil when the marker is not base64).
    var position: SyncPosition? {
        Data(base64Encoded: generationMarker).map { SyncPosition(generationMarker: $0, offset: offset) }
    }
}

/// `signal --wait --json`: a ``SyncReport`` as the host prints it.
///
/// Its keys are the report's own (``SyncReport/CodingKeys``, declared once), each written by an
/// exhaustive `switch`, so a new field of the report does not compile until this says how it is
/// printed; then `transcript` (with `--trace`).
struct ReportJSON: Codable {
    /// The report, as printed: its duration rounded to hundredths of a millisecond.
    var report: SyncReport
    /// Every enumerator and observer call of the sync (`--trace`).
    var transcript: [String]?

    init(_ report: SyncReport, transcript: [String]?) {
        self.report = report
        self.report.durationMs = (report.durationMs * 100).rounded() / 100
        self.transcript = transcript
    }

    /// A report field's key, or `transcript`.
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        init(_ field: SyncReport.CodingKeys) { stringValue = field.stringValue }
        static let transcript = Key(stringValue: "transcript")
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for field in SyncReport.CodingKeys.allCases {
            let key = Key(field)
            switch field {
            case .enumeration: try container.encode(report.enumeration, forKey: key)
            case .pages: try container.encode(report.pages, forKey: key)
            case .batches: try container.encode(report.batches, forKey: key)
            case .updated: try container.encode(report.updated, forKey: key)
            case .deleted: try container.encode(report.deleted, forKey: key)
            case .systemCount: try container.encode(report.systemCount, forKey: key)
            case .anchor: try container.encodeIfPresent(report.anchor.map(PositionJSON.init), forKey: key)
            case .nextPage: try container.encodeIfPresent(report.nextPage.map(PositionJSON.init), forKey: key)
            case .durationMs: try container.encode(report.durationMs, forKey: key)
            case .restarted: try container.encode(report.restarted, forKey: key)
            case .error: try container.encodeIfPresent(report.error, forKey: key)
            // Printed only when there are some.
            case .warnings: if !report.warnings.isEmpty { try container.encode(report.warnings, forKey: key) }
            // The calls' times are the kit's size rules' (a traced reply); the printed report has the duration.
            case .callMilliseconds: break
            }
        }
        try container.encodeIfPresent(transcript, forKey: .transcript)
    }

    /// Reads what ``encode(to:)`` writes (a `status --json`'s `lastSync`, a script's saved report).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        report = SyncReport(enumeration: "")
        for field in SyncReport.CodingKeys.allCases {
            let key = Key(field)
            switch field {
            case .enumeration: report.enumeration = try container.decode(String.self, forKey: key)
            case .pages: report.pages = try container.decode(Int.self, forKey: key)
            case .batches: report.batches = try container.decode(Int.self, forKey: key)
            case .updated: report.updated = try container.decode(Int.self, forKey: key)
            case .deleted: report.deleted = try container.decode(Int.self, forKey: key)
            case .systemCount: report.systemCount = try container.decode(Int.self, forKey: key)
            case .anchor: report.anchor = try container.decodeIfPresent(PositionJSON.self, forKey: key)?.position
            case .nextPage: report.nextPage = try container.decodeIfPresent(PositionJSON.self, forKey: key)?.position
            case .durationMs: report.durationMs = try container.decode(Double.self, forKey: key)
            case .restarted: report.restarted = try container.decode(Bool.self, forKey: key)
            case .error: report.error = try container.decodeIfPresent(SyncReport.ReportedError.self, forKey: key)
            case .warnings: report.warnings = try container.decodeIfPresent([String].self, forKey: key) ?? []
            case .callMilliseconds: break
            }
        }
        transcript = try container.decodeIfPresent([String].self, forKey: .transcript)
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
            let last = lastSync.report
            lines.append(
                "last sync: \(last.enumeration), \(last.updated) updated, \(last.deleted) deleted"
                    + (last.error.map { ", failed: \($0.message)" } ?? ", ok"))
        } else {
            lines.append("last sync: never")
        }
        return lines.joined(separator: "\n")
    }
}
