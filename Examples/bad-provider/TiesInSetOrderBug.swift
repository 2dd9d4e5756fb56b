// The bug: content pages are sorted by name, and contacts of one name come in `Set` order. A Swift
// `Set` hashes with a seed of its process (and of its storage), so two calls, above all two processes,
// list tied contacts in different orders, and the same page holds other contacts each time: a system
// that asks a page again (relaunched before it committed it) skips some contacts and gets others
// twice. With one tied pair in a dozen contacts the kit caught it in 7 of 9 runs (issue 43, class 6);
// with a page of one name, asked again after a relaunch, it is caught every time. Caught by C5.
//
// The pages come from a snapshot of the store taken at the initial page (so edits during content do
// not shift them), rebuilt from the store after a relaunch; changes are the correct enumerator's,
// from the correct initial page's marker.

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class TiesInSetOrderEnumerator: ForwardingEnumerator {
    private let lock = NSLock()
    /// The snapshot of each content enumeration, by its generation marker.
    private var snapshots: [Data: [ContactRecord]] = [:]

    override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        var marker = page.generationMarker
        if page == .initialPage {
            // The correct enumerator's marker: at or before the snapshot read after it (R29).
            let capture = MarkerCapture(observer)
            await correct.enumerateContent(in: page, for: capture)
            guard let captured = capture.marker else { return }
            marker = captured
        }
        let snapshot: [ContactRecord]
        do {
            snapshot = try lock.withLock { snapshots[marker] } ?? AppDatabase(appGroup: .current).all()
        } catch {
            return observer.didFinishEnumeratingContentWithError(error)
        }
        lock.withLock { snapshots[marker] = snapshot }
        let ordered = Self.byNameTiesInSetOrder(snapshot)
        let start = min(page.offset, ordered.count)
        let end = min(start + max(observer.suggestedPageSize, 1), ordered.count)
        observer.didEnumerate(ordered[start..<end].map { $0.makeItem() })
        if end == ordered.count {
            observer.didFinishEnumeratingContent(upTo: marker)
        } else {
            observer.didFinishEnumeratingPage(upTo: ContactItemPage(generationMarker: marker, offset: end))
        }
    }

    /// Sorted by family and given name; contacts of one name in the order of a `Set` of them.
    private static func byNameTiesInSetOrder(_ contacts: [ContactRecord]) -> [ContactRecord] {
        let byName = Dictionary(grouping: contacts) { $0.familyName + "\u{1F}" + $0.givenName }
        return byName.keys.sorted().flatMap { name in
            let tied = Dictionary(byName[name]!.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
            return Set(tied.keys).map { tied[$0]! }
        }
    }
}

/// Takes the marker of the correct initial page and hands the system nothing of that call.
private final class MarkerCapture: ForwardingContentObserver {
    var marker: Data?
    override func didEnumerate(_ items: [ContactItem]) {}
    override func didFinishEnumeratingPage(upTo nextPage: ContactItemPage) { marker = nextPage.generationMarker }
    override func didFinishEnumeratingContent(upTo generationMarker: Data) { marker = generationMarker }
    override func didFinishEnumeratingContentWithError(_ error: any Error) {
        next.didFinishEnumeratingContentWithError(error)
    }
}
