import ContactProviderConformance
import Testing

@testable import MyProvider

/// The provider's own test, as the CI article's `swift test` step runs it: every rule of the kit, in
/// process, against the App Group database the provider reads (the default backend).
@Test("The provider passes every MUST rule of the conformance kit")
func providerConforms() async throws {
    let report = try await checkContactProvider(Provider.self, options: ConformanceOptions(seed: 7, operations: 40))
    #expect(report.passed, "\(report.text)")
}
