// The bug: every content page waits on something slow (a network call, a huge file) for longer
// than the system's page timeout (BAD_PROVIDER_DELAY_SECONDS, default 3 s). The system ends such a
// page with enumerationTimeout. Caught by C1; the rules that need content are skipped.
// With BAD_PROVIDER_SLOW_CHANGES=1 every change batch waits as long too (the host's tests use it, with
// a short delay, for a change enumeration slow enough to show signal's progress lines).

import ContactProvider
import Foundation
import KnownBadProviders

final class SlowPageEnumerator: ForwardingEnumerator {
    private var delay: UInt64 {
        let seconds = Double(ProcessInfo.processInfo.environment["BAD_PROVIDER_DELAY_SECONDS"] ?? "") ?? 3
        return UInt64(seconds * 1_000_000_000)
    }

    override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        try? await Task.sleep(nanoseconds: delay)
        await correct.enumerateContent(in: page, for: observer)
    }

    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        if ProcessInfo.processInfo.environment["BAD_PROVIDER_SLOW_CHANGES"] == "1" {
            try? await Task.sleep(nanoseconds: delay)
        }
        await correct.enumerateChanges(startingAt: syncAnchor, for: observer)
    }
}
