// The bug: the enumerator's invalidate() never returns (it waits for work that never finishes). The
// system ends such an extension after its time limit (R11). Caught by L2, and by L2 alone: the other
// lifecycle rules are about the extension's first answer and its restart, which still work.

import ContactProvider
import Foundation
import KnownBadProviders

final class HangingInvalidateEnumerator: ForwardingEnumerator {
    override func invalidate() async {
        // Waits for ever (a continuation nobody resumes), as a provider waiting on a lost callback does.
        await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
    }
}
