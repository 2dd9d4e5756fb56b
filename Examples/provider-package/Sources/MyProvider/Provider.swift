import AppGroupStore
import ContactProvider
import Contacts

@main
final class Provider: ContactProviderExtension {
    private let root = RootContainerEnumerator()

    required init() {}
    func configure(for domain: any ContactProviderDomain) {}
    func enumerator(for collection: ContactItem.Identifier) -> any ContactItemEnumerator { root }
    func invalidate() async throws {}
}

final class RootContainerEnumerator: ContactItemEnumerator {
    // The app's database in the App Group; the marker it hands out names its generation and position.
    private let database = ProviderDataSource()

    func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        do {
            let marker = page == .initialPage ? nil : page.generationMarker
            switch try database.contentPage(marker: marker, offset: page.offset, limit: observer.suggestedPageSize) {
            case .expired:
                observer.didFinishEnumeratingContentWithError(ContactProviderError.pageExpired)
            case .page(let records, let marker, let nextOffset, let isLast):
                observer.didEnumerate(records.map { $0.makeItem() })
                if isLast {
                    observer.didFinishEnumeratingContent(upTo: marker.data)
                } else {
                    observer.didFinishEnumeratingPage(
                        upTo: ContactItemPage(generationMarker: marker.data, offset: nextOffset))
                }
            }
        } catch {
            observer.didFinishEnumeratingContentWithError(error)
        }
    }

    func enumerateChanges(startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver)
        async
    {
        do {
            let batch = try database.changes(
                marker: syncAnchor.generationMarker, offset: syncAnchor.offset, limit: observer.suggestedBatchSize)
            switch batch {
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

    func invalidate() async {}
}
