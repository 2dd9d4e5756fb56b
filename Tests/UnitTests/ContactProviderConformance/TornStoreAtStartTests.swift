import AppGroupStore
import ContactProvider
import ContactProviderConformance
import ExampleProviders
import Foundation
import KnownBadProviders
import Testing

/// Issue 43, item 12, in process (the `checkContactProvider` path; the executable path is
/// `ScenarioClassCLITests`): the kit makes a fresh instance of the provider type while the store
/// cannot be read, so a type that reads its store in `init` meets the torn store there.
@Suite("Conformance: the store torn when the provider starts, in process", .serialized)
struct TornStoreAtStartTests {
    final class GoodProvider: ExampleProvider {}

    /// Reads the App Group database once, in `init`, and keeps an unreadable one as an empty list
    /// for the life of the instance (the seed demo's `ContactItemDatabase` shape).
    final class EmptyWhenUnreadableAtStart: KnownBadProvider {
        final class Enumerator: ForwardingEnumerator {
            let unreadableAtStart = (try? ProviderDataSource().current()) == nil

            override func enumerateContent(
                in page: ContactItemPage, for observer: any ContactItemContentObserver
            ) async {
                guard unreadableAtStart else { return await correct.enumerateContent(in: page, for: observer) }
                observer.didEnumerate([])
                observer.didFinishEnumeratingContent(upTo: Data("empty-at-start".utf8))
            }

            override func enumerateChanges(
                startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
            ) async {
                guard unreadableAtStart else {
                    return await correct.enumerateChanges(startingAt: syncAnchor, for: observer)
                }
                observer.didFinishEnumeratingChanges(upTo: syncAnchor, moreComing: false)
            }
        }
        override class func flawed(_ correct: DemoEnumerator) -> any ContactItemEnumerator {
            Enumerator(wrapping: correct)
        }
    }

    @Test(
        "a provider type that keeps an unreadable store at start as an empty list fails T1, naming the torn store and the contacts the system lacks; the demo provider passes",
        arguments: [42, 7, 1234] as [UInt64])
    func emptyAtStartFailsT1(seed: UInt64) async throws {
        let options = ConformanceOptions(seed: seed, rules: [.t1])
        let flawed = try await ConformanceKit.run(EmptyWhenUnreadableAtStart.self, options: options)
        let t1 = try #require(flawed.results.first { $0.rule == .t1 })
        #expect(t1.status == .fail, "\(flawed.text)")
        #expect(
            t1.explanation?.contains("started and asked for content while the store could not be read") == true
                && t1.explanation?.contains("the system holds 0 of the 4 contacts") == true,
            "\(t1.explanation ?? "none")")
        let good = try await ConformanceKit.run(GoodProvider.self, options: options)
        #expect(good.results.first { $0.rule == .t1 }?.status == .pass, "\(good.text)")
    }
}
