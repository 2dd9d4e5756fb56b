// The seed demo's Contact Provider extension, done right.
//
// It reads the app's database through the App Group store, pages with the system's
// `suggestedPageSize` under a real generation marker, reports updates AND deletions from the
// database journal in `suggestedBatchSize` batches with advancing anchors, and answers
// `changeAnchorExpired` / `pageExpired` when the database forgot the anchor's generation.
// Nothing here is Linux-specific except where the database lives.

import AppGroupStore
import ContactProvider
import Contacts
import Foundation

@main
final class DemoProvider: ContactProviderExtension {
    private let rootContainerEnumerator = DemoEnumerator()

    required init() {}

    func configure(for domain: any ContactProviderDomain) {
        rootContainerEnumerator.domainName = domain.displayName
    }

    func enumerator(for collection: ContactItem.Identifier) -> any ContactItemEnumerator {
        rootContainerEnumerator
    }

    func invalidate() async throws {
        await rootContainerEnumerator.invalidate()
    }
}

final class DemoEnumerator: ContactItemEnumerator {
    var domainName = ""
    // Keeps the database in memory and reads only new journal lines on each call.
    private let database = ProviderDataSource()

    func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        do {
            // The initial page takes the current generation and seq as its marker: that is at or
            // before the snapshot the pages are read from, so edits made meanwhile are delivered
            // by the first change enumeration.
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

    func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        do {
            switch try database.changes(
                marker: syncAnchor.generationMarker, offset: syncAnchor.offset, limit: observer.suggestedBatchSize)
            {
            case .expired:
                observer.didFinishEnumeratingChangesWithError(ContactProviderError.changeAnchorExpired)
            case .batch(let updated, let deleted, let marker, let offset, let moreComing):
                if !updated.isEmpty { observer.didUpdate(updated.map { $0.makeItem() }) }
                if !deleted.isEmpty { observer.didDelete(deleted.map(ContactItem.Identifier.init)) }
                observer.didFinishEnumeratingChanges(
                    upTo: ContactItemSyncAnchor(generationMarker: marker.data, offset: offset), moreComing: moreComing)
            }
        } catch {
            observer.didFinishEnumeratingChangesWithError(error)
        }
    }

    func invalidate() async {}
}
