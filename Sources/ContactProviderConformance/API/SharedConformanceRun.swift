import Foundation

/// One conformance run shared by many tests, so `swift test` can show one test per rule.
///
/// ```swift
/// let run = SharedConformanceRun { try await ConformanceKit.run(MyProvider.self) }
///
/// @Test(arguments: ConformanceRule.all.map(\.id))
/// func conformance(rule: String) async throws {
///     let result = try await run.result(rule)
///     #expect(result.status != .fail, "\(result.details)")
/// }
/// ```
///
/// The first caller runs the kit; every later caller waits for and gets the same report.
public actor SharedConformanceRun {
    private let start: @Sendable () async throws -> ConformanceReport
    private var running: Task<ConformanceReport, any Error>?

    /// `start` runs the kit (any of ``ConformanceKit``'s entry points); it is called at most once.
    public init(_ start: @escaping @Sendable () async throws -> ConformanceReport) {
        self.start = start
    }

    /// The whole report.
    public func report() async throws -> ConformanceReport {
        if let running { return try await running.value }
        let task = Task { try await start() }
        running = task
        return try await task.value
    }

    /// The result of one rule (`C1`, `D8`, …); an unknown id throws.
    public func result(_ rule: String) async throws -> RuleResult {
        guard let result = try await report().results.first(where: { $0.rule.id == rule.uppercased() }) else {
            throw ConformanceBackendError(
                "no conformance rule '\(rule)' (known: \(ConformanceRule.all.map(\.id).joined(separator: ", ")))")
        }
        return result
    }
}
