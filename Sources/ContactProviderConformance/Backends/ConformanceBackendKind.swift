import AppGroupStore
import Foundation

/// The store a CLI conformance run edits: `--backend KIND[:ARG]`.
public enum ConformanceBackendKind: Equatable, Sendable, CustomStringConvertible {
    /// The simulator's App Group database (what `contacts-host add` writes). The default.
    case appDatabase
    /// The seed demo's JSON file (relative to the App Group root, or absolute).
    case seedJSON(file: String)
    /// An adapter program speaking the line protocol (see ``ExecBackend``).
    case exec(command: String)
    /// A CardDAV address book collection, edited over HTTP (see ``CardDAVBackend``); the provider's
    /// `carddav.json` is written into the run's App Group.
    case carddav(url: String)

    /// The kinds `parse` knows, for messages.
    public static let known = ["app-database", "seed-json[:FILE]", "exec:COMMAND", "carddav:URL"]

    /// Parses `KIND[:ARG]`; the error says which kinds exist.
    public static func parse(_ text: String) throws -> ConformanceBackendKind {
        let kind = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        let argument = text.contains(":") ? String(text[text.index(after: text.firstIndex(of: ":")!)...]) : nil
        switch kind {
        case "app-database" where argument == nil:
            return .appDatabase
        case "seed-json":
            if let argument, argument.isEmpty {
                throw ConformanceBackendError("--backend seed-json: FILE after ':' is empty")
            }
            return .seedJSON(file: argument ?? "ContactItems.json")
        case "exec":
            guard let argument, !argument.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ConformanceBackendError("--backend exec needs a command: exec:COMMAND")
            }
            return .exec(command: argument)
        case "carddav":
            let url = argument ?? ""
            // Checked here, so a bad URL is a usage error before anything runs.
            do { _ = try CardDAVBackend(argument: url) } catch {
                throw ConformanceBackendError("--backend \(text): \(error)")
            }
            return .carddav(url: url)
        default:
            throw ConformanceBackendError("unknown --backend '\(text)' (known: \(known.joined(separator: ", ")))")
        }
    }

    /// The `--backend` argument that parses back to this kind.
    public var description: String {
        switch self {
        case .appDatabase: return "app-database"
        case .seedJSON(let file): return "seed-json:\(file)"
        case .exec(let command): return "exec:\(command)"
        case .carddav(let url): return "carddav:\(url)"
        }
    }

    /// The backend for a run whose App Group is `appGroup`.
    public func makeBackend(appGroup: AppGroup, timeoutSeconds: Double = 30) throws -> any ConformanceBackend {
        switch self {
        case .appDatabase: return AppGroupDatabaseBackend(appGroup: appGroup)
        case .seedJSON(let file): return SeedJSONBackend(appGroup: appGroup, file: file)
        case .exec(let command):
            return try ExecBackend(command: command, appGroup: appGroup, timeoutSeconds: timeoutSeconds)
        case .carddav(let url):
            let backend = try CardDAVBackend(argument: url)
            try backend.configureProvider(in: appGroup)
            return backend
        }
    }
}
