import ContactProviderConformance
import ExampleProviders
import Testing

/// Options the kit refuses before it runs: a rule id that names no rule would select nothing, and
/// a run that checks nothing passes.
@Suite("Conformance options: typed rule sets, and refused options")
struct ConformanceOptionsTests {
    final class DemoProvider: ExampleProvider {}

    @Test("an unknown rule id is refused before anything runs, naming it")
    func unknownRule() async {
        await #expect(throws: ConformanceOptionsError.unknownRule("Z9")) {
            try await ConformanceKit.run(DemoProvider.self, options: ConformanceOptions(rules: ["C1", "Z9"]))
        }
        await #expect(throws: ConformanceOptionsError.unknownRule("C99")) {
            try await checkContactProvider(DemoProvider.self, options: ConformanceOptions(rules: ["C99"]))
        }
    }

    @Test("a size out of the system's range is refused")
    func sizeOutOfRange() async {
        await #expect(throws: ConformanceOptionsError.contactsOutOfRange(0, limit: 1_000_000)) {
            try await ConformanceKit.run(DemoProvider.self, options: ConformanceOptions(rules: ["S1"], contacts: 0))
        }
        #expect("\(ConformanceOptionsError.contactsOutOfRange(0, limit: 1_000_000))".contains("R42"))
    }

    @Test("rules given as values select the same run as their ids")
    func typedRules() async throws {
        let typed = ConformanceOptions(seed: 3, checking: [.c1, .c3])
        #expect(typed.rules == ["C1", "C3"])
        #expect(typed.selectedRules == [.c1, .c3])
        #expect(ConformanceOptions().selectedRules == nil)
        let report = try await ConformanceKit.run(DemoProvider.self, options: typed)
        #expect(report.results.filter { $0.status == .pass }.map(\.rule) == [.c1, .c3], "\(report.text)")
    }
}
