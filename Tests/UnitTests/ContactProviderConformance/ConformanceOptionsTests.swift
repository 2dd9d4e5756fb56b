import ContactProviderConformance
import ExampleProviders
import Testing

/// Options the kit refuses before it runs: a rule id that names no rule would select nothing, and
/// a run that checks nothing passes.
@Suite("Conformance options: typed rule sets, and refused options")
struct ConformanceOptionsTests {
    final class DemoProvider: ExampleProvider {}

    @Test("an unknown rule id is refused before anything runs, naming it")
    func unknownRule() throws {
        // Rules are selected by value; ids (from `--rules`) become values in one place, which
        // refuses an id that names no rule.
        #expect(throws: ConformanceOptionsError.unknownRule("Z9")) {
            try ConformanceRule.rules(named: ["C1", "Z9"])
        }
        #expect(throws: ConformanceOptionsError.unknownRule("C99")) { try ConformanceRule.rules(named: ["C99"]) }
        #expect(try ConformanceRule.rules(named: ["c1", "D3"]) == [.c1, .d3])
    }

    @Test("a size out of the system's range is refused")
    func sizeOutOfRange() async {
        await #expect(throws: ConformanceOptionsError.contactsOutOfRange(0, limit: 1_000_000)) {
            try await ConformanceKit.run(DemoProvider.self, options: ConformanceOptions(rules: [.s1], contacts: 0))
        }
        #expect("\(ConformanceOptionsError.contactsOutOfRange(0, limit: 1_000_000))".contains("R42"))
    }

    @Test("rules given as values select the run of those rules")
    func typedRules() async throws {
        let typed = ConformanceOptions(seed: 3, rules: [.c1, .c3])
        #expect(typed.rules == [.c1, .c3])
        #expect(ConformanceOptions().rules == nil)
        let report = try await ConformanceKit.run(DemoProvider.self, options: typed)
        #expect(report.results.filter { $0.status == .pass }.map(\.rule) == [.c1, .c3], "\(report.text)")
    }
}
