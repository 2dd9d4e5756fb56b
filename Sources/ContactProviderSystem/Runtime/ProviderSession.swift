import AppGroupStore
import CommandLineToolkit
import Foundation

/// One running extension instance, as the runtime sees it.
///
/// The `ContactProvider` module creates it: `init()`, then `configure(for:)` (R15), then
/// `enumerator(for: .rootContainer)` (R16); the runtime never sees the Apple types.
package protocol ProviderSession {
    /// The enumerator of the root container.
    var driver: any EnumeratorDriver { get }
    /// The extension's `invalidate()` (R17).
    func invalidateExtension() async throws
    /// Makes the extension's own state durable the way the device does without being asked: the
    /// runtime calls it after every committed page and batch, after every probe and before the process
    /// exits (cfprefsd persists every `UserDefaults` write on iOS; Linux Foundation only on `synchronize()`).
    func persistState()
}

extension ProviderSession {
    /// Nothing to persist (sessions with no state of their own, in tests).
    package func persistState() {}
}

/// How the provider process was started.
package struct RuntimeOptions: Sendable, Equatable {
    /// The App Group.
    package var appGroup: AppGroup
    /// The domain served.
    package var domain: String
    /// Attached to a terminal: log every request and observer call, never exit when idle.
    package var foreground: Bool = false
    /// Overrides the configured idle timeout.
    package var idleTimeoutSeconds: Double?

    package init(appGroup: AppGroup, domain: String, foreground: Bool = false, idleTimeoutSeconds: Double? = nil) {
        self.appGroup = appGroup
        self.domain = domain
        self.foreground = foreground
        self.idleTimeoutSeconds = idleTimeoutSeconds
    }

    /// `--domain ID`.
    static let domainOption = Option<String>(
        "--domain", value: "ID", help: "The domain to serve (default: the default domain).")
    /// `--foreground`.
    static let foregroundFlag = Flag("--foreground", help: "Log every call to stderr and do not exit when idle.")
    /// `--idle-timeout SECONDS`.
    static let idleTimeoutOption = Option<Double>(
        "--idle-timeout", value: "SECONDS", help: "Exit after this long without a request (default: from domain.json).",
        convert: ArgumentValue.seconds)
    /// Added by the system when it launches the provider (`ProviderLauncher`); changes nothing.
    static let launchedBySystemFlag = Flag(
        "--launched-by-system", help: "Set by the system when it starts the provider.")

    /// The options a provider accepts, in help order.
    static var optionSpecs: [OptionSpec] {
        [AppGroup.option.spec, domainOption.spec, foregroundFlag.spec, idleTimeoutOption.spec]
    }

    /// The provider's usage text.
    package static var usage: String {
        let width = optionSpecs.map(\.synopsis.count).max()! + 3
        let lines = (optionSpecs + [OptionSpec("-h, --help", help: "Show this help.")]).map {
            "  " + $0.synopsis.padding(toLength: width, withPad: " ", startingAt: 0) + $0.help
        }
        return """
            USAGE: <provider> [--app-group DIR] [--domain ID] [--foreground] [--idle-timeout SECONDS]

            A Contact Provider extension. The system (contacts-host) launches it on demand; run it with
            --foreground to debug it in a terminal, with a log of every request and observer call.

            OPTIONS:

            """ + lines.joined(separator: "\n")
    }

    /// Parses the provider's arguments with the toolkit's parser (an unknown or malformed one is a
    /// `UsageError`, exit 2); nil for `--help`.
    package static func parse(_ arguments: [String], defaultDomain: String) throws -> RuntimeOptions? {
        if arguments.contains("-h") || arguments.contains("--help") { return nil }
        var rest = arguments
        let appGroup = try AppGroup.takeOption(from: &rest) ?? .current
        let parsed = try parseArguments(
            rest, options: optionSpecs.filter { $0.name != AppGroup.option.name } + [launchedBySystemFlag.spec],
            positional: .none, globalOptions: [AppGroup.option.name])
        return RuntimeOptions(
            appGroup: appGroup, domain: try parsed.value(domainOption) ?? defaultDomain,
            foreground: parsed.has(foregroundFlag), idleTimeoutSeconds: try parsed.value(idleTimeoutOption))
    }
}
