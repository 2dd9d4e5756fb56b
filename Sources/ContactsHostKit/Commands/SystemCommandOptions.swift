import AppStores
import CommandLineToolkit
import ContactProviderSystem
import Foundation

/// The options of `contacts-host enable`, each declared once with its type; `Settings` carries
/// their values onto the domain's configuration.
enum EnableOptions {
    /// The configuration a domain has before any option: every default the help states is read here.
    static let defaults = DomainConfiguration()

    static let extensionPath = Option<String>(
        "--extension", value: "PATH", help: "The provider executable the system launches.")
    static let pageSize = Option<Int>(
        "--page-size", value: "N", help: "suggestedPageSize (default \(DomainConfiguration.defaultPageSize)).",
        convert: ArgumentValue.positiveInt)
    static let batchSize = Option<Int>(
        "--batch-size", value: "N", help: "suggestedBatchSize (default \(DomainConfiguration.defaultBatchSize)).",
        convert: ArgumentValue.positiveInt)
    static let hardCap = Option<Int>(
        "--hard-cap", value: "N",
        help: "Fail a page/batch larger than N × the suggestion (default \(defaults.hardCapMultiplier)).",
        convert: ArgumentValue.positiveInt)
    static let pageTimeout = Option<Double>(
        "--page-timeout", value: "SECONDS",
        help: "Time limit per page or batch (default \(SecondsText.format(defaults.pageTimeoutSeconds))).",
        convert: ArgumentValue.seconds)
    static let invalidateTimeout = Option<Double>(
        "--invalidate-timeout", value: "SECONDS",
        help: "Time limit for invalidate() (default \(SecondsText.format(defaults.invalidateTimeoutSeconds))).",
        convert: ArgumentValue.seconds)
    static let idleTimeout = Option<Double>(
        "--idle-timeout", value: "SECONDS",
        help: "Idle provider exits after this long (default \(SecondsText.format(defaults.idleTimeoutSeconds))).",
        convert: ArgumentValue.seconds)
    static let itemsLimit = Option<Int>(
        "--items-limit", value: "N", help: "Most contacts the domain may provide (default \(defaults.itemsLimit)).",
        convert: ArgumentValue.positiveInt)
    static let backend = Option<ConformanceBackendKind>(
        "--backend", value: "KIND",
        help:
            "The app's store, which add, import, list… edit: \(ConformanceBackendKind.known.joined(separator: ", ")) (default \(ConformanceBackendKind.appDatabase); kept until changed).",
        convert: { text, _ in
            do { return try ConformanceBackendKind.parse(text) } catch { throw UsageError("\(error)") }
        })
    static let paceAfterSave = Option<Int>(
        "--pace-after-save", value: "ITEMS",
        help:
            "After each saved page or batch, pause 1 s per ITEMS items saved, as iOS does (default \(defaults.paceItemsPerSecond): off).",
        convert: { text, option in Int(clamping: try ArgumentValue.nonNegativeInteger(text, option: option)) })

    /// The settings given on one `enable` command line (nil: keep the configured value).
    struct Settings {
        var pageSize, batchSize, hardCap, itemsLimit, paceAfterSave: Int?
        var pageTimeout, invalidateTimeout, idleTimeout: Double?
        var backend: ConformanceBackendKind?

        init(_ arguments: ParsedArguments) throws {
            backend = try arguments.value(EnableOptions.backend).map(Self.anchored)
            pageSize = try arguments.value(EnableOptions.pageSize)
            batchSize = try arguments.value(EnableOptions.batchSize)
            hardCap = try arguments.value(EnableOptions.hardCap)
            itemsLimit = try arguments.value(EnableOptions.itemsLimit)
            paceAfterSave = try arguments.value(EnableOptions.paceAfterSave)
            pageTimeout = try arguments.value(EnableOptions.pageTimeout)
            invalidateTimeout = try arguments.value(EnableOptions.invalidateTimeout)
            idleTimeout = try arguments.value(EnableOptions.idleTimeout)
        }

        func apply(to configuration: inout DomainConfiguration) {
            if let pageSize { configuration.pageSize = pageSize }
            if let batchSize { configuration.batchSize = batchSize }
            if let hardCap { configuration.hardCapMultiplier = hardCap }
            if let itemsLimit { configuration.itemsLimit = itemsLimit }
            if let paceAfterSave { configuration.paceItemsPerSecond = paceAfterSave }
            if let pageTimeout { configuration.pageTimeoutSeconds = pageTimeout }
            if let invalidateTimeout { configuration.invalidateTimeoutSeconds = invalidateTimeout }
            if let idleTimeout { configuration.idleTimeoutSeconds = idleTimeout }
            if let backend { configuration.backend = backend == .appDatabase ? nil : backend.description }
        }

        /// `kind` with an exec adapter given by a relative path made absolute: every later command
        /// runs it, from whatever directory that command runs in.
        static func anchored(_ kind: ConformanceBackendKind) -> ConformanceBackendKind {
            guard case .exec(let command) = kind, let program = command.split(separator: " ").first,
                program.contains("/"), !program.hasPrefix("/"), FileManager.default.fileExists(atPath: String(program))
            else { return kind }
            let absolute = URL(fileURLWithPath: String(program)).standardizedFileURL.path
            return .exec(command: absolute + command.dropFirst(program.count))
        }
    }
}

/// The options of `contacts-host signal`.
enum SignalOptions {
    static let wait = Flag("--wait", help: "Wait for the sync to finish and print its report.")
    static let timeout = Option<Double>(
        "--timeout", value: "SECONDS", help: "How long to wait while the sync commits nothing (default 60).",
        convert: ArgumentValue.seconds)
    static let json = JSONOutput.report(reportShape + "; implies --wait")

    /// The shape of a sync's report (`signal --json`, `step --json`, `status --json`'s `lastSync`).
    static let reportShape =
        "{\"anchor\"?: {\"generationMarker\", \"offset\"}, \"batches\", \"deleted\", \"durationMs\", \"enumeration\","
        + " \"error\"?: {\"code\", \"message\", \"rule\"}, \"nextPage\"?, \"pages\", \"restarted\", \"systemCount\","
        + " \"transcript\"? (with --trace), \"updated\", \"warnings\"?}"
    static let trace = Flag("--trace", help: "Print every enumerator and observer call of the sync.")
    static let relaunch = Flag(
        "--relaunch",
        help:
            "End the running provider first (invalidate, as iOS ends idle extensions): a provider that reads its store once per process reads it again."
    )
    static let waitForDebugger = Flag(
        "--wait-for-debugger",
        help:
            "Before signalling, wait until a debugger is attached to the provider (launching one that waits, if none runs)."
    )
}
