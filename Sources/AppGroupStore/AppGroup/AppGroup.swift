import Foundation
import Synchronization

/// The shared container (App Group directory) that the app, its extension and the system use.
///
/// Chosen, in order, by `--app-group DIR`, the `CONTACT_PROVIDER_APP_GROUP` environment
/// variable, or the per-user default `$XDG_DATA_HOME/contact-provider-simulator/AppGroup`
/// (`~/.local/share/contact-provider-simulator/AppGroup`), which does not depend on the current
/// directory, so a user cannot lose track of it. Everything the simulator writes lives below it:
///
/// ```
/// <app group>/contacts/            the app's database (snapshot.jsonl, journal.jsonl, lock)
/// <app group>/domains/<domain>/    the system's side of one domain (domain.json, store/, last-sync.json)
/// <app group>/run/<domain>/        named pipes and process locks (requests.fifo, replies/, provider.lock)
/// ```
public struct AppGroup: Sendable, Equatable {
    /// The environment variable that names the App Group directory.
    public static let environmentVariable = "CONTACT_PROVIDER_APP_GROUP"
    /// The last path component of the default App Group directory.
    public static let defaultDirectoryName = "AppGroup"
    /// The per-user directory (below the XDG data directory) that holds the default App Group.
    public static let dataDirectoryName = "contact-provider-simulator"

    /// Where an App Group choice came from (shown by `contacts-host status`).
    public enum Source: String, Sendable, Codable {
        /// `--app-group DIR`.
        case flag
        /// `CONTACT_PROVIDER_APP_GROUP`.
        case environment
        /// Neither: the per-user default.
        case `default`

        /// How `status` says it.
        public var explanation: String {
            switch self {
            case .flag: "from --app-group"
            case .environment: "from $\(AppGroup.environmentVariable)"
            case .default: "the default; set $\(AppGroup.environmentVariable) or --app-group to choose another"
            }
        }
    }

    /// The per-user data directory of the simulator: `$XDG_DATA_HOME/contact-provider-simulator`,
    /// else `$HOME/.local/share/contact-provider-simulator`, else (no home) the current directory.
    public static func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return AppGroup(path: data + "/" + dataDirectoryName).path
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return AppGroup(path: home + "/.local/share/" + dataDirectoryName).path
        }
        return FileManager.default.currentDirectoryPath
    }

    /// The App Group used when neither the flag nor the variable is set.
    public static func defaultGroup(environment: [String: String] = ProcessInfo.processInfo.environment) -> AppGroup {
        AppGroup(path: dataDirectory(environment: environment) + "/" + defaultDirectoryName)
    }

    /// Absolute path of the App Group directory.
    public let path: String

    /// An App Group at `path` (made absolute against the current directory).
    ///
    /// `.`, `..` and repeated slashes are removed by text alone: `standardizingPath` also resolves
    /// symbolic links, and a planted link must be seen (and refused), not silently followed.
    public init(path: String) {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var components: [Substring] = []
        for component in absolute.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        self.path = "/" + components.joined(separator: "/")
    }

    private static let override = Mutex<AppGroup?>(nil)

    /// Makes `group` the App Group of this process (what `--app-group` does in a provider process); nil
    /// goes back to the environment variable or the default. To choose a group for one piece of work
    /// without changing the whole process's, use ``withCurrent(_:isolation:operation:)``.
    package static func use(_ group: AppGroup?) {
        override.withLock { $0 = group }
    }

    /// The App Group chosen with `use(_:)`, if any (scopes never change it).
    package static var chosen: AppGroup? {
        override.withLock { $0 }
    }

    /// The App Group in use here: the task's scope (``withCurrent(_:isolation:operation:)``), else the
    /// in-process provider run under way, else `use(_:)`, else the environment variable, else the default.
    public static var current: AppGroup { currentWithSource.group }

    /// The App Group in use here and where that choice came from (a scope and `use(_:)` count as the flag).
    public static var currentWithSource: (group: AppGroup, source: Source) {
        if let scoped { return (scoped, .flag) }
        if let chosen = override.withLock({ $0 }) { return (chosen, .flag) }
        if let fromEnvironment = EnvironmentVariable.value(environmentVariable), !fromEnvironment.isEmpty {
            return (AppGroup(path: fromEnvironment), .environment)
        }
        return (defaultGroup(environment: dataDirectoryVariables()), .default)
    }

    /// The two variables ``dataDirectory(environment:)`` reads, with `getenv`: the whole environment
    /// as a dictionary (`ProcessInfo`'s) is a tenth of a millisecond of every command that takes the
    /// default App Group (see ``EnvironmentVariable``).
    private static func dataDirectoryVariables() -> [String: String] {
        var values: [String: String] = [:]
        if let data = EnvironmentVariable.value("XDG_DATA_HOME") { values["XDG_DATA_HOME"] = data }
        if let home = EnvironmentVariable.value("HOME") { values["HOME"] = home }
        return values
    }

    /// Creates the App Group directory (mode 0700) if needed and checks that it belongs to this user
    /// (never a symbolic link, never under a directory another user planted; see `SecureFile.checkAppGroupRoot`).
    public func ensureExists() throws {
        if try !SecureFile.checkAppGroupRoot(path) {
            try SecureFile.ensureDirectory(path)
        }
    }

    /// The app's contact database directory.
    public var contactsDirectory: String { path + "/contacts" }

    /// The system's directory for `domain` (identifier validated so it cannot escape the App Group).
    package func domainDirectory(_ domain: String) throws -> String {
        try Self.validateDomain(domain)
        return path + "/domains/" + domain
    }

    /// The directory of named pipes and process locks for `domain`.
    package func runDirectory(_ domain: String) throws -> String {
        try Self.validateDomain(domain)
        return path + "/run/" + domain
    }

    /// Domain identifiers become directory names, so only a safe alphabet is accepted.
    package static func validateDomain(_ domain: String) throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard !domain.isEmpty, domain.count <= 128, domain != ".", domain != "..",
            domain.allSatisfy({ allowed.contains($0) })
        else {
            throw StoreError.invalidIdentifier(
                domain, reason: "a domain identifier may use only letters, digits, '.', '_' and '-'")
        }
    }
}
