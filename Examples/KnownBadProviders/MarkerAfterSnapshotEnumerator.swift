// The flaw: the first change enumeration after content starts from the database's head ("now")
// instead of from the content's generation marker, so an edit made while the pages were being read
// is never delivered. Breaks R29; caught by the kit's rule D3.

import AppGroupStore
import ContactProvider
import Foundation

/// Wraps a correct enumerator and replaces only the change-start computation: an anchor that came
/// from content enumeration is moved to the database's head before the correct enumerator reads it.
///
/// Breaks R29 ("the first change enumeration starts from the content's generation marker, so edits
/// made during content enumeration are delivered"); the conformance kit's rule D3 catches it. To
/// tell a content marker from a change anchor, the content markers it reports carry a `late:` tag,
/// removed again before the correct enumerator sees a marker.
public final class MarkerAfterSnapshotEnumerator: ForwardingEnumerator {
    private static let tag = Data("late:".utf8)
    // The App Group's database, whose head is "now".
    private let database = ProviderDataSource()

    public override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async
    {
        let untagged = ContactItemPage(generationMarker: Self.untagged(page.generationMarker), offset: page.offset)
        await correct.enumerateContent(in: untagged, for: TaggingObserver(observer))
    }

    public override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        var start = ContactItemSyncAnchor(
            generationMarker: Self.untagged(syncAnchor.generationMarker), offset: syncAnchor.offset)
        if syncAnchor.generationMarker.starts(with: Self.tag), let content = SyncMarker(data: start.generationMarker) {
            // The bug: "start from the content's generation" is taken to mean "from now".
            do {
                let head = try database.current().headSeq
                start = ContactItemSyncAnchor(
                    generationMarker: SyncMarker(generation: content.generation, seq: head).data, offset: 0)
            } catch {
                return observer.didFinishEnumeratingChangesWithError(error)
            }
        }
        await correct.enumerateChanges(startingAt: start, for: observer)
    }

    fileprivate static func tagged(_ marker: Data) -> Data { tag + marker }

    private static func untagged(_ marker: Data) -> Data {
        marker.starts(with: tag) ? Data(marker.dropFirst(tag.count)) : marker
    }
}

/// Tags the markers of both ways a page can end.
private final class TaggingObserver: ForwardingContentObserver {
    override func didFinishEnumeratingPage(upTo nextPage: ContactItemPage) {
        next.didFinishEnumeratingPage(
            upTo: ContactItemPage(
                generationMarker: MarkerAfterSnapshotEnumerator.tagged(nextPage.generationMarker),
                offset: nextPage.offset))
    }

    override func didFinishEnumeratingContent(upTo generationMarker: Data) {
        next.didFinishEnumeratingContent(upTo: MarkerAfterSnapshotEnumerator.tagged(generationMarker))
    }
}
