import Foundation
import TestSupport
import Testing

/// Issue 27, item 6: the kit at the app's size. With `--contacts N` the size rules fill the store
/// with N contacts and sync them at the system's page and batch sizes, each call timed where the
/// provider runs: a provider whose every call reads the whole store passes every other rule and
/// fails S2, named, and its reproduce line fails S2 again; the correct demo provider passes both
/// and the report gives its page times against the limit.
@Suite("End to end: the conformance kit at the app's size (--contacts N)")
struct SizeRuleCLITests {
    /// 10,000 contacts: 10 pages of the system's 1,000, and 10 times the one-page reference, the
    /// least that measures growth. A page limit of 5 s: projected to 1,000,000 contacts, a call
    /// that reads the whole store (hundreds of milliseconds at 10,000 in a debug build) goes far
    /// past it, and a page whose time does not grow stays far within it even on a loaded machine
    /// (10 ms of noise between the two sizes projects to about 1 s).
    static let atSize = ["--rules", "S1,S2", "--contacts", "10000", "--page-timeout", "5", "--json"]

    @Test(
        "a provider that reads its whole store on every call fails S2 at size, in words, and its reproduce line fails S2 again"
    )
    func wholeStorePerCallFailsS2() throws {
        let environment = ["BAD_PROVIDER_BUG": "whole-store-per-call"]
        let result = try ConformanceHarness.run("bad-provider", Self.atSize, environment: environment)
        #expect(result.exitCode == 1, "\(result)")
        let outcomes = try ConformanceHarness.outcomes(result)
        #expect(outcomes["S1"]?.status == "pass", "\(result)")
        let s2 = try #require(outcomes["S2"])
        #expect(s2.status == "fail", "\(s2)")
        #expect(s2.explanation.contains("grows with the address book"), "\(s2.explanation)")
        #expect(s2.explanation.contains("at 1000000 contacts (the system's item limit, R42)"), "\(s2.explanation)")
        #expect(s2.reproduce.contains("--contacts 10000"), "\(s2.reproduce)")
        try withTemporaryAppGroup { group in
            var reproduceEnvironment = group.environment
            reproduceEnvironment.merge(environment) { _, new in new }
            let again = try ProcessRunner.run(
                "/bin/sh", ["-c", s2.reproduce + " --json"], environment: reproduceEnvironment)
            #expect(ConformanceHarness.rules(try ConformanceHarness.outcomes(again), "fail") == ["S2"], "\(again)")
        }
    }

    @Test("the demo provider passes S1 and S2 at size, and the report gives the page times against the limit")
    func demoProviderPassesAtSize() throws {
        let result = try ConformanceHarness.run("demo-provider", Self.atSize)
        #expect(result.exitCode == 0, "\(result)")
        let outcomes = try ConformanceHarness.outcomes(result)
        let s1 = try #require(outcomes["S1"])
        #expect(s1.status == "pass", "\(s1)")
        #expect(s1.explanation.contains("10000 contacts: 10 content pages (median"), "\(s1.explanation)")
        #expect(s1.explanation.contains("against the page limit of 5.0 s"), "\(s1.explanation)")
        #expect(outcomes["S2"]?.status == "pass", "\(result)")
        #expect(outcomes["S2"]?.explanation.contains("projected to 1000000 contacts") == true, "\(result)")
        // The kit's other rules were not selected, so none of them ran.
        #expect(ConformanceHarness.rules(outcomes, "pass").sorted() == ["S1", "S2"], "\(result)")
    }

    @Test("the size rules without --contacts, or a size past the item limit, are usage errors")
    func sizeRulesNeedASize() throws {
        let withoutSize = try ConformanceHarness.run("demo-provider", ["--rules", "S2"])
        #expect(withoutSize.exitCode == 2, "\(withoutSize)")
        #expect(withoutSize.stderr.contains("the size rules need the app's size, --contacts N"), "\(withoutSize)")
        let tooMany = try ConformanceHarness.run("demo-provider", ["--contacts", "2000000"])
        #expect(tooMany.exitCode == 2, "\(tooMany)")
        #expect(tooMany.stderr.contains("the system's item limit, R42"), "\(tooMany)")
    }
}
