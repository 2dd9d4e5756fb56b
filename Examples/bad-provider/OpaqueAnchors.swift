// Not a bug: a legal design (issue 43's "correct providers of unusual but legal designs"). The
// provider's generation markers and sync anchors are opaque binary, not text: each is the correct
// enumerator's bytes behind a format byte (0xFF, never the first byte of UTF-8 text) and XOR-ed with
// 0xA5, as a provider that stores a serialized cursor or a database's binary row version hands them
// over. The system stores them and hands them back unread (R23, R34), so every rule must pass; the
// kit's likely-mistake sentences, which read anchor bytes as evidence (D2's "versions compared as
// text"), must not fire on bytes that are not text. A marker or anchor the provider did not make is
// answered with the expiry error, as the rules ask of one it cannot read (R27, R38).

import ContactProvider
import Foundation
import KnownBadProviders

final class OpaqueAnchorsEnumerator: ForwardingEnumerator {
    override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        guard page != .initialPage else {
            return await correct.enumerateContent(in: page, for: OpaqueContentObserver(observer))
        }
        guard let marker = OpaqueBytes.reveal(page.generationMarker) else {
            return observer.didFinishEnumeratingContentWithError(ContactProviderError.pageExpired)
        }
        await correct.enumerateContent(
            in: ContactItemPage(generationMarker: marker, offset: page.offset), for: OpaqueContentObserver(observer))
    }

    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        guard let marker = OpaqueBytes.reveal(syncAnchor.generationMarker) else {
            return observer.didFinishEnumeratingChangesWithError(ContactProviderError.changeAnchorExpired)
        }
        await correct.enumerateChanges(
            startingAt: ContactItemSyncAnchor(generationMarker: marker, offset: syncAnchor.offset),
            for: OpaqueChangeObserver(observer))
    }
}

/// The provider's binary form of the correct enumerator's markers.
private enum OpaqueBytes {
    static let format: UInt8 = 0xFF
    static let mask: UInt8 = 0xA5

    static func hide(_ marker: Data) -> Data { Data([format] + marker.map { $0 ^ mask }) }

    /// The correct enumerator's marker, or nil for bytes this provider did not make.
    static func reveal(_ opaque: Data) -> Data? {
        guard opaque.first == format else { return nil }
        return Data(opaque.dropFirst().map { $0 ^ mask })
    }
}

private final class OpaqueContentObserver: ForwardingContentObserver {
    override func didFinishEnumeratingPage(upTo nextPage: ContactItemPage) {
        next.didFinishEnumeratingPage(
            upTo: ContactItemPage(
                generationMarker: OpaqueBytes.hide(nextPage.generationMarker), offset: nextPage.offset))
    }

    override func didFinishEnumeratingContent(upTo generationMarker: Data) {
        next.didFinishEnumeratingContent(upTo: OpaqueBytes.hide(generationMarker))
    }
}

private final class OpaqueChangeObserver: ForwardingChangeObserver {
    override func didFinishEnumeratingChanges(upTo syncAnchor: ContactItemSyncAnchor, moreComing: Bool) {
        next.didFinishEnumeratingChanges(
            upTo: ContactItemSyncAnchor(
                generationMarker: OpaqueBytes.hide(syncAnchor.generationMarker), offset: syncAnchor.offset),
            moreComing: moreComing)
    }
}
