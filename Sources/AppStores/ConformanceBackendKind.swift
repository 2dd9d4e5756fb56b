import AppGroupStore
import Foundation

/// The store a CLI conformance run edits, and the app's store of a `contacts-host` domain:
/// `--backend KIND[:ARG]` (the host remembers it in `domain.json`).
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
    public static let known = forms.map(\.spelling)

    /// Each kind's spelling with what it is, declared once for `known`, help and messages.
    package static let forms: [(spelling: String, meaning: String)] = [
        ("app-database", "the App Group database"), ("seed-json[:FILE]", "the seed demo's JSON file"),
        ("exec:COMMAND", "an adapter program"), ("carddav:URL", "a CardDAV collection"),
    ]

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
            guard Self.cardDAVCollection(url) != nil else {
                throw ConformanceBackendError(
                    "--backend \(text): carddav: needs an http or https address book URL, got '\(url)'")
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

    /// The address book collection of a `carddav:` argument (always ending with `/`), or nil when it
    /// is not an http(s) URL with a host.
    public static func cardDAVCollection(_ argument: String) -> URL? {
        guard let url = URL(string: argument.hasSuffix("/") ? argument : argument + "/"),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        return url
    }

    /// Whether the store is edited over the network (CardDAV): only the kit, which links
    /// FoundationNetworking, makes that backend (`makeBackend(appGroup:timeoutSeconds:)`).
    public var needsNetwork: Bool {
        if case .carddav = self { return true }
        return false
    }

    /// The backend for a store on this machine (`app-database`, `seed-json`, `exec:`) whose App
    /// Group is `appGroup`: what `contacts-host`'s contact commands edit.
    ///
    /// - Throws: ``ConformanceBackendError`` for a CardDAV store (``needsNetwork``), and when an
    ///   exec adapter cannot be started or does not answer its `hello`.
    public func makeLocalBackend(appGroup: AppGroup, timeoutSeconds: Double = 30) throws -> any ConformanceBackend {
        switch self {
        case .appDatabase: return AppGroupDatabaseBackend(appGroup: appGroup)
        case .seedJSON(let file): return SeedJSONBackend(appGroup: appGroup, file: file)
        case .exec(let command):
            return try ExecBackend(command: command, appGroup: appGroup, timeoutSeconds: timeoutSeconds)
        case .carddav(let url):
            throw ConformanceBackendError(
                "carddav:\(url) is edited over the network, by the conformance kit (makeBackend), not on this machine")
        }
    }
}
