// The bug: the enumerator's invalidate() never returns (it waits for work that never finishes). The
// system ends such an extension after its time limit (R11). Caught by L2, and by L2 alone: the other
// lifecycle rules are about the extension's first answer and its restart, which still work.

import ContactProvider
import Foundation
import KnownBadProviders

final class HangingInvalidateEnumerator: ContactItemEnumerator {
    private let correct: any ContactItemEnumerator

    init(wrapping correct: any ContactItemEnumerator) { self.correct = correct }

    func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        await correct.enumerateContent(in: page, for: observer)
    }

    func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        await correct.enumerateChanges(startingAt: syncAnchor, for: observer)
    }

    func invalidate() async {
        // Waits for ever (a continuation nobody resumes), as a provider waiting on a lost callback does.
        await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
    }
}
