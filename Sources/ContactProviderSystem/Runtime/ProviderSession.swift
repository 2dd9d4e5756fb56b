import AppGroupStore
import Foundation

/// One running extension instance, as the runtime sees it.
///
/// The `ContactProvider` module creates it: `init()`, then `configure(for:)` (R15), then
/// `enumerator(for: .rootContainer)` (R16); the runtime never sees the Apple types.
public protocol ProviderSession {
    /// The enumerator of the root container.
    var driver: any EnumeratorDriver { get }
    /// The extension's `invalidate()` (R17).
    func invalidateExtension() async throws
}

/// How the provider process was started.
public struct RuntimeOptions: Sendable, Equatable {
    /// The App Group.
    public var appGroup: AppGroup
    /// The domain served.
    public var domain: String
    /// Attached to a terminal: log every request and observer call, never exit when idle.
    public var foreground: Bool = false
    /// Overrides the configured idle timeout.
    public var idleTimeoutSeconds: Double?

    public init(appGroup: AppGroup, domain: String, foreground: Bool = false, idleTimeoutSeconds: Double? = nil) {
        self.appGroup = appGroup
        self.domain = domain
        self.foreground = foreground
        self.idleTimeoutSeconds = idleTimeoutSeconds
    }

    /// The provider's usage text.
    public static let usage = """
        USAGE: <provider> [--app-group DIR] [--domain ID] [--foreground] [--idle-timeout SECONDS]

        A Contact Provider extension. The system (contacts-host) launches it on demand; run it with
        --foreground to debug it in a terminal, with a log of every request and observer call.

        OPTIONS:
          --app-group DIR          The App Group directory (default: $CONTACT_PROVIDER_APP_GROUP, else ~/.local/share/contact-provider-simulator/AppGroup).
          --domain ID              The domain to serve (default: the default domain).
          --foreground             Log every call to stderr and do not exit when idle.
          --idle-timeout SECONDS   Exit after this long without a request (default: from domain.json).
          -h, --help               Show this help.
        """

    /// A command-line problem.
    public struct UsageError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Parses the provider's arguments (unknown ones are an error, exit 2).
    public static func parse(_ arguments: [String], defaultDomain: String) throws -> RuntimeOptions? {
        var options = RuntimeOptions(appGroup: .current, domain: defaultDomain)
        var index = 0
        func value(_ name: String) throws -> String {
            index += 1
            guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                throw UsageError(description: "\(name) needs a value")
            }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-h", "--help": return nil
            case "--app-group": options.appGroup = AppGroup(path: try value(argument))
            case "--domain": options.domain = try value(argument)
            case "--foreground": options.foreground = true
            case "--launched-by-system": break
            case "--idle-timeout":
                let text = try value(argument)
                guard let seconds = Double(text), seconds > 0 else {
                    throw UsageError(description: "--idle-timeout expects a positive number of seconds, got '\(text)'")
                }
                options.idleTimeoutSeconds = seconds
            default:
                if argument.hasPrefix("--app-group=") {
                    options.appGroup = AppGroup(path: String(argument.dropFirst("--app-group=".count)))
                } else {
                    throw UsageError(description: "unknown argument '\(argument)'")
                }
            }
            index += 1
        }
        return options
    }
}
