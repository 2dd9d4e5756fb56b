import AppGroupStore
import ContactProvider
import ExampleProviders
import Foundation
import KnownBadProviders
import Testing

@testable import ContactProviderConformance

/// Issue 27, item 6, in process: `ConformanceOptions.contacts` runs the size rules on a provider
/// type (the `checkContactProvider` path); the executable path is `SizeRuleCLITests`.
@Suite("Conformance: the size rules in process (ConformanceOptions.contacts)", .serialized)
struct SizeRulesTests {
    final class GoodProvider: ExampleProvider {}

    /// Reads every contact of the App Group database twice on each page before answering correctly:
    /// once to count them, once sorted by name to find where the page starts. (Read once and sorted by
    /// family name alone, the growth projected to 8–9 s at the item limit on a quiet machine: under the
    /// 10 s page limit, so the test's verdict depended on the machine's load.)
    final class WholeStorePerCall: KnownBadProvider {
        final class Enumerator: ForwardingEnumerator {
            override func enumerateContent(
                in page: ContactItemPage, for observer: any ContactItemContentObserver
            ) async {
                let database = AppDatabase(appGroup: .current)
                _ = try? database.all().count
                _ = try? database.all().sorted {
                    ($0.familyName, $0.givenName, $0.identifier) < ($1.familyName, $1.givenName, $1.identifier)
                }
                await correct.enumerateContent(in: page, for: observer)
            }
        }
        override class func flawed(_ correct: DemoEnumerator) -> any ContactItemEnumerator {
            Enumerator(wrapping: correct)
        }
    }

    static let atSize = ConformanceOptions(seed: 5, rules: [.s1, .s2], contacts: 10_000)

    @Test("the demo provider passes S1 and S2 at 10,000 contacts; the notes give its times against the limit")
    func goodProviderAtSize() async throws {
        let report = try await checkContactProvider(GoodProvider.self, options: Self.atSize)
        let s1 = try #require(report.results.first { $0.rule == .s1 })
        #expect(s1.status == .pass)
        #expect(s1.explanation?.hasPrefix("10000 contacts: 10 content pages (median") == true, "\(report.text)")
        let s2 = try #require(report.results.first { $0.rule == .s2 })
        #expect(s2.status == .pass)
        #expect(s2.explanation?.contains("projected to 1000000 contacts") == true, "\(report.text)")
        #expect(report.text.contains("NOTE S1: 10000 contacts"), "\(report.text)")
    }

    @Test("a provider type that reads its whole store on every page fails S2; its reproduce call names the size")
    func wholeStorePerCallFails() async throws {
        let report = try await ConformanceKit.run(WholeStorePerCall.self, options: Self.atSize)
        let s2 = try #require(report.results.first { $0.rule == .s2 })
        #expect(s2.status == .fail, "\(report.text)")
        #expect(s2.explanation?.contains("a content page's time grows with the address book") == true)
        #expect(s2.reproduce?.contains("rules: [.s2], contacts: 10000)") == true, "\(s2.reproduce ?? "")")
        #expect(report.results.first { $0.rule == .s1 }?.status == .pass, "\(report.text)")
    }

    @Test("below ten pages of contacts S1 runs and S2 says it was not measured")
    func smallSizeMeasuresS1Only() async throws {
        let report = try await checkContactProvider(
            GoodProvider.self, options: ConformanceOptions(rules: [.s1, .s2], contacts: 2500))
        #expect(
            report.results.first { $0.rule == .s1 }?.explanation?.hasPrefix("2500 contacts: 3 content pages") == true)
        #expect(
            report.results.first { $0.rule == .s2 }?.explanation?.hasPrefix("not measured: the growth is measured from")
                == true, "\(report.text)")
    }

    @Test("asked for by name without a size, the size rules are skipped and say what they need")
    func sizeRulesWithoutASize() async throws {
        let report = try await ConformanceKit.run(GoodProvider.self, options: ConformanceOptions(rules: [.s1]))
        let s1 = try #require(report.results.first { $0.rule == .s1 })
        #expect(s1.status == .skipped)
        #expect(s1.explanation?.contains("--contacts N (ConformanceOptions.contacts)") == true, "\(report.text)")
    }

    @Test(
        "the median of call times",
        arguments: zip([[], [3], [5, 1, 9], [4, 1, 3, 2]] as [[Double]], [0, 3, 5, 2.5] as [Double]))
    func median(times: [Double], expected: Double) {
        #expect(CallTimes.median(times) == expected)
    }
}
