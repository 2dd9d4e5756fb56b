// The bug: the provider consumes its change log as it hands changes over, not once the system has
// committed them. Asked again from the same anchor — as a system that crashed before its commit asks —
// it has nothing left to send, so those changes are lost. (The Xcode-template shape did this when it
// kept only the latest "what was sent" set.) The system that is not interrupted receives everything,
// so only the replay notices: caught by D6, and by D6 alone.

import ContactProvider
import Foundation
import KnownBadProviders

final class ForgetsHandedOverEnumerator: ForwardingEnumerator {
    /// Anchors already handed over (by their marker and offset), with the anchor each batch ended at.
    private var handedOver: [String: ContactItemSyncAnchor] = [:]

    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        let key = Self.key(syncAnchor)
        // What was handed over from this anchor is consumed: only what changed since is left.
        let from = handedOver[key] ?? syncAnchor
        let recorder = EndRecorder(observer)
        await correct.enumerateChanges(startingAt: from, for: recorder)
        if let end = recorder.end {
            handedOver[key] = end
            if Self.key(from) != key { handedOver[Self.key(from)] = end }
        }
    }

    private static func key(_ anchor: ContactItemSyncAnchor) -> String {
        anchor.generationMarker.base64EncodedString() + "@\(anchor.offset)"
    }
}

/// Forwards a batch and remembers the anchor it ended at.
private final class EndRecorder: ForwardingChangeObserver {
    var end: ContactItemSyncAnchor?

    override func didFinishEnumeratingChanges(upTo syncAnchor: ContactItemSyncAnchor, moreComing: Bool) {
        end = syncAnchor
        next.didFinishEnumeratingChanges(upTo: syncAnchor, moreComing: moreComing)
    }
}
