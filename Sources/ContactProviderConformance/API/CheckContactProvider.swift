import AppGroupStore
import CommandLineToolkit
import ContactProvider
import ContactProviderSystem
import Foundation

/// Checks a Contact Provider extension type against every conformance rule, in this process.
///
/// ```swift
/// import ContactProviderConformance
/// import Testing
///
/// @Test func providerConforms() async throws {
///     try await checkContactProvider(MyProvider.self)
/// }
/// ```
///
/// The kit creates a temporary App Group, edits the data through `backend` (by default the App
/// Group database, as the host app would) and drives the provider through the simulated system.
///
/// While it runs, the provider's App Group is the kit's:
/// `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`, `ProviderDataSource()` and every
/// other reader of `AppGroup.current` resolve to it, in the run's tasks (a task-local scope) and also
/// from a `DispatchQueue`, a detached task or a `Thread` the provider starts (the run is registered as
/// the process's in-process run), so a provider never reads the wrong store. The process's own
/// choice (`AppGroup.use(_:)`, `AppGroup.chosen`) is never changed, not even during the run.
///
/// In-process runs take turns: each stands for one extension process, whose App Group is one for
/// the whole process, as on iOS; with two at once, provider code outside either run's tasks could
/// not tell which App Group is its own.
///
/// - Parameters:
///   - type: the extension's `@main` type.
///   - backend: for providers with their own data store: how the kit adds, updates and deletes.
///     Nil: the App Group database.
///   - options: seed, number of random operations, rule selection.
/// - Returns: the report (also when SHOULD rules only warn).
/// - Throws: ``ConformanceFailure`` (whose description is the full report) when a MUST rule fails;
///   ``ConformanceOptionsError`` before anything runs for a size out of range.
@discardableResult
public func checkContactProvider<Provider: ContactProviderExtension>(
    _ type: Provider.Type, backend: (any ConformanceBackend)? = nil, options: ConformanceOptions = ConformanceOptions()
) async throws -> ConformanceReport {
    let report = try await ConformanceKit.run(type, backend: backend, options: options)
    if !report.passed { throw ConformanceFailure(report: report) }
    return report
}

/// The kit's entry points that return a report instead of throwing on failure.
public enum ConformanceKit {
    /// Runs the rules against a provider type in this process.
    public static func run(
        _ type: any ContactProviderExtension.Type, backend: (any ConformanceBackend)? = nil,
        options: ConformanceOptions = ConformanceOptions()
    ) async throws -> ConformanceReport {
        // The reproduce line names the backend's type; the caller knows how they made it.
        let expression = backend.map { "backend: \(String(describing: Swift.type(of: $0)))(…), " } ?? ""
        return try await run(
            type, makeBackend: { group in backend ?? AppGroupDatabaseBackend(appGroup: group) },
            backendArgument: expression, options: options)
    }

    /// Runs the rules against a provider type in this process, with a backend of `kind` made for
    /// the run's temporary App Group (an `exec:` adapter is told it, as from the CLI).
    public static func run(
        _ type: any ContactProviderExtension.Type, backendKind kind: ConformanceBackendKind,
        options: ConformanceOptions = ConformanceOptions()
    ) async throws -> ConformanceReport {
        let expression =
            kind == .appDatabase ? "" : "backendKind: try .parse(\(String(reflecting: kind.description))), "
        return try await run(
            type, makeBackend: { group in try kind.makeBackend(appGroup: group) }, backendArgument: expression,
            options: options, entryPoint: "ConformanceKit.run")
    }

    private static func run(
        _ type: any ContactProviderExtension.Type, makeBackend: (AppGroup) throws -> any ConformanceBackend,
        backendArgument: String, options: ConformanceOptions, entryPoint: String = "checkContactProvider"
    ) async throws -> ConformanceReport {
        try options.validate()
        let group = try TemporaryDirectory(prefix: "cps-conformance")
        defer { group.remove() }
        // The provider's App Group is the run's, in its tasks and outside them; `AppGroup.chosen` is untouched.
        return try await AppGroup.withInProcessRun(group.appGroup) {
            let paths = try prepare(group.appGroup, options: options, extensionPath: nil)
            let subject = InProcessProvider(type, paths: paths, timeout: options.timeoutSeconds)
            let name = String(describing: type)
            return await check(
                subject: subject, backend: try makeBackend(group.appGroup), provider: name,
                options: options
            ) { rule in
                "try await \(entryPoint)(\(name).self, \(backendArgument)options: ConformanceOptions(seed: \(options.seed), operations: \(options.operations), rules: [.\(rule.lowercased())]\(options.resetCallsManagerReset ? ", resetCallsManagerReset: true" : "")\(options.contacts.map { ", contacts: \($0)" } ?? "")))"
            }
        }
    }

    /// Runs the rules against a provider executable over the real pipes and processes, in a
    /// temporary App Group (the user's data is never touched).
    ///
    /// - Parameters:
    ///   - executable: the provider executable's path.
    ///   - backend: the store the kit edits; it is made for the run's App Group (an adapter
    ///     program learns that directory from `--app-group` and `CONTACT_PROVIDER_APP_GROUP`).
    ///   - host: how the `reproduce:` lines call `contacts-host` (its absolute path, ideally).
    ///   - options: seed, number of random operations, rule selection.
    public static func run(
        executable: String, backend: ConformanceBackendKind = .appDatabase, host: String = "contacts-host",
        options: ConformanceOptions = ConformanceOptions()
    ) async throws -> ConformanceReport {
        try await run(
            executable: executable, namedBy: ["--extension", executable], backend: backend, host: host,
            options: options)
    }

    /// Runs the rules against a provider executable, as ``run(executable:backend:host:options:)``,
    /// with the provider named in the report, its JUnit suite and its `reproduce:` lines by
    /// `arguments` instead of `--extension EXECUTABLE`: `["--xcode-project", P, "--target", T]` for a
    /// build of an Xcode project, so a pasted line builds the project as it is then, not a cache's
    /// old copy.
    public static func run(
        executable: String, namedBy arguments: [String], backend: ConformanceBackendKind = .appDatabase,
        host: String = "contacts-host", options: ConformanceOptions = ConformanceOptions()
    ) async throws -> ConformanceReport {
        try options.validate()
        let group = try TemporaryDirectory(prefix: "cps-conformance")
        defer { group.remove() }
        let paths = try prepare(group.appGroup, options: options, extensionPath: executable)
        // The backend (an adapter process, perhaps) ends before its App Group is removed.
        func checkWithBackend() async throws -> ConformanceReport {
            let store = try backend.makeBackend(
                appGroup: group.appGroup, timeoutSeconds: max(options.timeoutSeconds * 3, 30))
            let subject = try ExecutableProvider(paths: paths, timeout: options.timeoutSeconds)
            defer { _ = try? SystemClient(appGroup: paths.appGroup, domain: paths.domain).shutdownProvider() }
            let backendArgument = backend == .appDatabase ? [] : ["--backend", backend.description]
            let timeoutArgument =
                options.timeoutSeconds == ConformanceOptions().timeoutSeconds
                ? [] : ["--page-timeout", "\(options.timeoutSeconds)"]
            let resetArgument = options.resetCallsManagerReset ? ["--reset-calls-manager-reset"] : []
            let contactsArgument = options.contacts.map { ["--contacts", "\($0)"] } ?? []
            let provider =
                arguments == ["--extension", executable]
                ? executable : arguments.map(ShellWord.quote).joined(separator: " ")
            let report = await check(subject: subject, backend: store, provider: provider, options: options) { rule in
                ([host, "conformance"] + arguments + backendArgument + timeoutArgument + resetArgument
                    + contactsArgument
                    + [
                        "--seed", "\(options.seed)", "--operations", "\(options.operations)", "--rules", rule,
                    ]).map(ShellWord.quote).joined(separator: " ")
            }
            return KeptLogs.keep(report, groupPath: group.appGroup.path)
        }
        // Nothing the run started outlives it (issue 31 item 10, issue 42 item 8): every process in the
        // run's cgroup, where one could be made, and every process the launcher tagged for this run's
        // App Group (a provider, a child it forked, one that ignores SIGTERM) is ended.
        let cleanup = RunCleanup(runDirectory: paths.runDirectory, tagPrefix: group.appGroup.path + "/")
        defer { _ = cleanup.endOutliving() }
        var report = try await checkWithBackend()
        let outliving = cleanup.endOutliving()
        report.outlivingProcesses = outliving.isEmpty ? nil : outliving
        report.containmentUnavailable = cleanup.containmentUnavailable
        return report
    }

    private static func prepare(_ appGroup: AppGroup, options: ConformanceOptions, extensionPath: String?) throws
        -> DomainPaths
    {
        let client = try SystemClient(appGroup: appGroup, domain: DefaultContactProviderDomain.identifier)
        try client.updateConfiguration { configuration in
            configuration.enabled = true
            configuration.extensionPath = extensionPath
            configuration.pageSize = options.pageSize
            configuration.batchSize = options.batchSize
            configuration.pageTimeoutSeconds = options.timeoutSeconds
            configuration.invalidateTimeoutSeconds = options.timeoutSeconds
        }
        return client.paths
    }

    private static func check(
        subject: ProviderUnderTest, backend: ConformanceBackend, provider: String, options: ConformanceOptions,
        reproduce: @escaping (String) -> String
    ) async -> ConformanceReport {
        let clock = ContinuousSystemClock()
        let started = clock.now()
        let checker = ConformanceChecker(subject: subject, backend: backend, options: options, reproduce: reproduce)
        let results = await checker.run()
        await subject.shutdown()
        return ConformanceReport(
            provider: provider, seed: options.seed, operations: options.operations, results: results,
            durationSeconds: clock.now() - started, startFailure: checker.startFailure)
    }
}

/// A private temporary App Group directory: the run's, deleted when it ends.
///
/// Its stores skip their durability barriers (``Durability``), in this process and in the
/// providers launched into it: nothing in it outlives the run, and no verdict depends on a power cut.
struct TemporaryDirectory {
    let appGroup: AppGroup

    init(prefix: String) throws {
        let path = NSTemporaryDirectory() + "/\(prefix)-\(UUID().uuidString)"
        appGroup = AppGroup(path: path)
        Durability.markEphemeral(appGroup.path)
        try appGroup.ensureExists()
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: appGroup.path)
        Durability.unmarkEphemeral(appGroup.path)
    }
}
