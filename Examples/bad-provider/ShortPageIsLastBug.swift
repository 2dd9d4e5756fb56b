// The bug: a page with fewer contacts than `suggestedPageSize` is taken for the last one. The
// provider lists the store's identifiers when a content enumeration begins and reads each page's
// contacts from the store as it is then (so a page carries the latest values), skipping those that
// are gone; it ends content as soon as a page comes out short. A contact of a later page deleted
// while the enumeration runs leaves a hole: the page it was on is short, the provider ends content
// there, and the system drops every contact of the pages after it (the change sync that follows
// brings only the deletion). Caught by D3, contacts of later pages deleted between two content
// pages (issue 43, class 4).
//
// The marker is the correct initial page's (at or before the list, R29); changes are the correct
// enumerator's.

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class ShortPageIsLastEnumerator: ForwardingEnumerator {
    private let lock = NSLock()
    /// The identifiers of each content enumeration, by its generation marker, in the store's order.
    private var listed: [Data: [String]] = [:]

    override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        var marker = page.generationMarker
        if page == .initialPage {
            let capture = InitialMarkerCapture(observer)
            await correct.enumerateContent(in: page, for: capture)
            guard let captured = capture.marker else { return }
            marker = captured
        }
        let live: [ContactRecord]
        do {
            live = try AppDatabase(appGroup: .current).all()
        } catch {
            return observer.didFinishEnumeratingContentWithError(error)
        }
        let identifiers = lock.withLock { listed[marker] } ?? live.map(\.identifier)
        lock.withLock { listed[marker] = identifiers }
        let byIdentifier = Dictionary(live.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        let size = max(observer.suggestedPageSize, 1)
        let start = min(page.offset, identifiers.count)
        let end = min(start + size, identifiers.count)
        let found = identifiers[start..<end].compactMap { byIdentifier[$0] }
        observer.didEnumerate(found.map { $0.makeItem() })
        if found.count < size {
            observer.didFinishEnumeratingContent(upTo: marker)
        } else {
            observer.didFinishEnumeratingPage(upTo: ContactItemPage(generationMarker: marker, offset: end))
        }
    }
}

/// Takes the marker of the correct initial page and hands the system nothing of that call.
private final class InitialMarkerCapture: ForwardingContentObserver {
    var marker: Data?
    override func didEnumerate(_ items: [ContactItem]) {}
    override func didFinishEnumeratingPage(upTo nextPage: ContactItemPage) { marker = nextPage.generationMarker }
    override func didFinishEnumeratingContent(upTo generationMarker: Data) { marker = generationMarker }
}
