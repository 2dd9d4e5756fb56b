// The flaw: every content page reports a different generation marker (the page's offset is written
// into it), where all pages of one content enumeration must carry the same one. Breaks R23; caught
// by the kit's rule C2.

import ContactProvider
import Foundation

/// Wraps a correct enumerator and stamps each content page's offset onto the generation marker it
/// reports, so no two pages of one content enumeration share a marker.
///
/// Breaks R23 ("the generation marker stays the same for the whole content enumeration"); the
/// conformance kit's rule C2 catches it. Everything else is the correct enumerator's: the stamp is
/// removed from every marker the system hands back, before the correct enumerator reads it.
public final class ChangingMarkerEnumerator: ForwardingEnumerator {
    public override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async
    {
        let unstamped = ContactItemPage(generationMarker: Self.unstamped(page.generationMarker), offset: page.offset)
        await correct.enumerateContent(in: unstamped, for: PageStampingObserver(observer, offset: page.offset))
    }

    public override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        // The first change anchor is the last page's (stamped) marker.
        let unstamped = ContactItemSyncAnchor(
            generationMarker: Self.unstamped(syncAnchor.generationMarker), offset: syncAnchor.offset)
        await correct.enumerateChanges(startingAt: unstamped, for: observer)
    }

    /// `p<offset>:` in front of the marker of the page at `offset`.
    static func stamped(_ marker: Data, offset: Int) -> Data { Data("p\(offset):".utf8) + marker }

    /// `marker` without a leading `p<digits>:` stamp (unchanged when it has none).
    static func unstamped(_ marker: Data) -> Data {
        guard marker.first == UInt8(ascii: "p"), let colon = marker.firstIndex(of: UInt8(ascii: ":")) else {
            return marker
        }
        let digits = marker[marker.index(after: marker.startIndex)..<colon]
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return marker
        }
        return Data(marker[marker.index(after: colon)...])
    }
}

/// Stamps the requested page's offset onto both ways a page can end.
private final class PageStampingObserver: ForwardingContentObserver {
    let offset: Int

    init(_ next: any ContactItemContentObserver, offset: Int) {
        self.offset = offset
        super.init(next)
    }

    override func didFinishEnumeratingPage(upTo nextPage: ContactItemPage) {
        next.didFinishEnumeratingPage(
            upTo: ContactItemPage(
                generationMarker: ChangingMarkerEnumerator.stamped(nextPage.generationMarker, offset: offset),
                offset: nextPage.offset))
    }

    override func didFinishEnumeratingContent(upTo generationMarker: Data) {
        next.didFinishEnumeratingContent(upTo: ChangingMarkerEnumerator.stamped(generationMarker, offset: offset))
    }
}
