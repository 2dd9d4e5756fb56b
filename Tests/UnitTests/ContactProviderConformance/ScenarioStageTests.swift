import AppGroupStore
import ContactProvider
import ContactProviderSystem
import ExampleProviders
import Foundation
import TestSupport
import Testing

@testable import ContactProviderConformance

/// Issue 30, item 5: a scenario that stops with an error blames the rule it was checking, and skips
/// the rules it never reached, instead of failing every rule in it.
@Suite("Conformance: a scenario that throws blames only the rule it was on", .serialized)
struct ScenarioStageTests {
    final class GoodProvider: ExampleProvider {}

    /// The in-process demo provider, except that asking it to invalidate fails outright (as a provider
    /// process that vanished while being asked would).
    final class InvalidateFails: ProviderUnderTest {
        struct Vanished: Error, CustomStringConvertible {
            var description: String { "the provider did not answer" }
        }
        let inner: InProcessProvider
        init(_ inner: InProcessProvider) { self.inner = inner }
        var paths: DomainPaths { inner.paths }
        func probe(_ request: ProbeRequest) async throws -> ProbeResult { try await inner.probe(request) }
        func sync(maxSteps: Int, expectedCalls: Int) async throws -> (SyncReport, [String]) {
            try await inner.sync(maxSteps: maxSteps, expectedCalls: expectedCalls)
        }
        func restart() async throws { try await inner.restart() }
        func invalidate() async throws -> (seconds: Double, error: String?) { throw Vanished() }
        func shutdown() async { await inner.shutdown() }
        func useDeviceSettings(_ environment: [String: String]) async throws -> Bool {
            try await inner.useDeviceSettings(environment)
        }
    }

    @Test("an error while checking L2: L2 fails naming it, L1 passes, L3 is skipped as not reached")
    func lifecycleStopsAtL2() async throws {
        try await withTemporaryAppGroup { group in
            try await AppGroup.withInProcessRun(group.appGroup) {
                let client = try SystemClient(appGroup: group.appGroup, domain: DefaultContactProviderDomain.identifier)
                try client.enable()
                let options = ConformanceOptions(seed: 3, operations: 10, rules: [.l1, .l2, .l3])
                let subject = InvalidateFails(
                    InProcessProvider(GoodProvider.self, paths: client.paths, timeout: options.timeoutSeconds))
                let checker = ConformanceChecker(
                    subject: subject, backend: AppGroupDatabaseBackend(appGroup: group.appGroup), options: options,
                    reproduce: { $0 })
                let results = Dictionary(uniqueKeysWithValues: await checker.run().map { ($0.rule.id, $0) })
                await subject.shutdown()
                #expect(results["L1"]?.status == .pass, "\(String(describing: results["L1"]))")
                #expect(results["L2"]?.status == .fail)
                #expect(results["L2"]?.explanation?.contains("the provider did not answer") == true)
                #expect(results["L3"]?.status == .skipped)
                #expect(results["L3"]?.explanation?.contains("stopped while checking L2") == true)
            }
        }
    }

    @Test("every rule is listed by a scenario; a rule none lists would be reported as not checked, never passed")
    func everyRuleHasAScenario() async throws {
        try await withTemporaryAppGroup { group in
            try await AppGroup.withInProcessRun(group.appGroup) {
                let client = try SystemClient(appGroup: group.appGroup, domain: DefaultContactProviderDomain.identifier)
                try client.enable()
                let options = ConformanceOptions()
                let subject = InProcessProvider(GoodProvider.self, paths: client.paths, timeout: options.timeoutSeconds)
                let checker = ConformanceChecker(
                    subject: subject, backend: AppGroupDatabaseBackend(appGroup: group.appGroup), options: options,
                    reproduce: { $0 })
                #expect(ConformanceChecker.uncovered(by: checker.scenarios).isEmpty)
                // Without the scenarios of T1, T1 is what the guard names.
                let withoutT1 = checker.scenarios.filter { !$0.rules.contains(.t1) }
                #expect(ConformanceChecker.uncovered(by: withoutT1) == [.t1])
                await subject.shutdown()
            }
        }
    }
}
