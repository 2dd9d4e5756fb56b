import AppGroupStore
import ContactProvider
import ContactProviderSystem
import Foundation
import Synchronization

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
/// The kit creates a temporary App Group, makes it this process's App Group while it runs (so a
/// provider that reads the App Group database sees the kit's data), edits the data through
/// `backend` (by default the App Group database, as the host app would) and drives the provider
/// through the simulated system. Runs are serialised within a process.
///
/// - Parameters:
///   - type: the extension's `@main` type.
///   - backend: for providers with their own data store: how the kit adds, updates and deletes.
///     Nil: the App Group database.
///   - options: seed, number of random operations, rule selection.
/// - Returns: the report (also when SHOULD rules only warn).
/// - Throws: ``ConformanceFailure`` (whose description is the full report) when a MUST rule fails.
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
        await exclusive.acquire()
        defer { exclusive.release() }
        let previous = AppGroup.chosen
        let group = try TemporaryDirectory(prefix: "cps-conformance")
        AppGroup.use(group.appGroup)
        defer {
            AppGroup.use(previous)
            group.remove()
        }
        let paths = try prepare(group.appGroup, options: options, extensionPath: nil)
        let subject = InProcessProvider(type, paths: paths, timeout: options.timeoutSeconds)
        let name = String(describing: type)
        let report = await check(
            subject: subject, backend: backend ?? AppGroupDatabaseBackend(appGroup: group.appGroup), provider: name,
            options: options
        ) { rule in
            "try await checkContactProvider(\(name).self, options: ConformanceOptions(seed: \(options.seed), operations: \(options.operations), rules: [\"\(rule)\"]))"
        }
        return report
    }

    /// Runs the rules against a provider executable over the real pipes and processes, in a
    /// temporary App Group (the user's data is never touched).
    ///
    /// - Parameter backend: where the provider's data lives (nil: the App Group database). An
    ///   ``AppGroupConfiguringBackend`` (such as ``CardDAVBackend``) first writes the provider's
    ///   settings into the temporary App Group.
    public static func run(
        executable: String, backend: (any ConformanceBackend)? = nil, options: ConformanceOptions = ConformanceOptions()
    ) async throws -> ConformanceReport {
        let group = try TemporaryDirectory(prefix: "cps-conformance")
        defer { group.remove() }
        let paths = try prepare(group.appGroup, options: options, extensionPath: executable)
        try (backend as? any AppGroupConfiguringBackend)?.configureProvider(in: group.appGroup)
        let subject = try ExecutableProvider(paths: paths, timeout: options.timeoutSeconds)
        defer { _ = try? SystemClient(appGroup: paths.appGroup, domain: paths.domain).shutdownProvider() }
        let backendFlag = (backend as? CardDAVBackend).map { " --backend carddav:\($0.collection.absoluteString)" } ?? ""
        return await check(
            subject: subject, backend: backend ?? AppGroupDatabaseBackend(appGroup: group.appGroup), provider: executable,
            options: options
        ) { rule in
            "contacts-host conformance --extension \(executable)\(backendFlag) --seed \(options.seed) --operations \(options.operations) --rules \(rule)"
        }
    }

    private static func prepare(_ appGroup: AppGroup, options: ConformanceOptions, extensionPath: String?) throws -> DomainPaths {
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
        let started = Date()
        let checker = ConformanceChecker(subject: subject, backend: backend, options: options, reproduce: reproduce)
        let results = await checker.run()
        await subject.shutdown()
        return ConformanceReport(
            provider: provider, seed: options.seed, operations: options.operations, results: results,
            durationSeconds: Date().timeIntervalSince(started))
    }

    /// In-process runs change the process's App Group, so they take turns.
    private static let exclusive = AsyncExclusion()
}

/// A FIFO lock for async code.
final class AsyncExclusion: Sendable {
    private struct State {
        var busy = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let proceed = state.withLock { state -> Bool in
                if !state.busy {
                    state.busy = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if proceed { continuation.resume() }
        }
    }

    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.busy = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}

/// A private temporary App Group directory.
struct TemporaryDirectory {
    let appGroup: AppGroup

    init(prefix: String) throws {
        let path = NSTemporaryDirectory() + "/\(prefix)-\(UUID().uuidString)"
        appGroup = AppGroup(path: path)
        try appGroup.ensureExists()
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: appGroup.path)
    }
}
