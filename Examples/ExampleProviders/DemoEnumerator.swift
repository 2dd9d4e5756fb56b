// The seed demo's enumerator, done right: the example to copy. (The known-bad providers of the
// conformance kit's tests wrap it, one flaw each, in Examples/KnownBadProviders; nothing here is wrong on purpose.)
//
// It reads the app's database through the App Group store, pages with the system's
// `suggestedPageSize` under a real generation marker, reports updates AND deletions from the
// database journal in `suggestedBatchSize` batches with advancing anchors, and answers
// `changeAnchorExpired` / `pageExpired` when the database forgot the anchor's generation.

import AppGroupStore
import ContactProvider
import Contacts
import Foundation

/// The root-container enumerator of the example providers.
public final class DemoEnumerator: ContactItemEnumerator {
    // Keeps the database in memory and reads only new journal lines on each call.
    private let database = ProviderDataSource()

    /// An enumerator over the App Group's database.
    public init() {}

    public func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        do {
            // The initial page takes the current generation and seq as its marker: that is at or
            // before the snapshot the pages are read from, so edits made meanwhile are delivered
            // by the first change enumeration (R29).
            let marker = page == .initialPage ? nil : page.generationMarker
            switch try database.contentPage(marker: marker, offset: page.offset, limit: observer.suggestedPageSize) {
            case .expired:
                observer.didFinishEnumeratingContentWithError(ContactProviderError.pageExpired)
            case .page(let records, let generation, let nextOffset, let isLast):
                observer.didEnumerate(records.map { $0.makeItem() })
                if isLast {
                    observer.didFinishEnumeratingContent(upTo: generation.data)
                } else {
                    observer.didFinishEnumeratingPage(
                        upTo: ContactItemPage(generationMarker: generation.data, offset: nextOffset))
                }
            }
        } catch {
            observer.didFinishEnumeratingContentWithError(error)
        }
    }

    public func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        do {
            switch try database.changes(
                marker: syncAnchor.generationMarker, offset: syncAnchor.offset, limit: observer.suggestedBatchSize)
            {
            case .expired:
                observer.didFinishEnumeratingChangesWithError(ContactProviderError.changeAnchorExpired)
            case .batch(let updated, let deleted, let marker, let nextOffset, let moreComing):
                if !updated.isEmpty { observer.didUpdate(updated.map { $0.makeItem() }) }
                if !deleted.isEmpty { observer.didDelete(deleted.map(ContactItem.Identifier.init)) }
                observer.didFinishEnumeratingChanges(
                    upTo: ContactItemSyncAnchor(generationMarker: marker.data, offset: nextOffset),
                    moreComing: moreComing)
            }
        } catch {
            observer.didFinishEnumeratingChangesWithError(error)
        }
    }

    public func invalidate() async {}
}

/// The example providers' principal class: `init()`, `configure(for:)`, one root enumerator.
///
/// The demo provider's executable is an empty `@main` subclass; tests subclass it the same way.
open class ExampleProvider: ContactProviderExtension {
    private let rootContainerEnumerator: DemoEnumerator
    /// The domain's display name, from `configure(for:)`.
    public private(set) var domainName = ""

    public required init() {
        rootContainerEnumerator = DemoEnumerator()
    }

    public func configure(for domain: any ContactProviderDomain) {
        domainName = domain.displayName
    }

    public func enumerator(for collection: ContactItem.Identifier) -> any ContactItemEnumerator {
        rootContainerEnumerator
    }

    public func invalidate() async throws {
        await rootContainerEnumerator.invalidate()
    }
}
