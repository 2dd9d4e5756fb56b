// The bug: every content page waits on something slow (a network call, a huge file) for longer
// than the system's page timeout (BAD_PROVIDER_DELAY_SECONDS, default 3 s). The system ends such a
// page with enumerationTimeout. Caught by C1; the rules that need content are skipped.

import ContactProvider
import Foundation
import KnownBadProviders

final class SlowPageEnumerator: ForwardingEnumerator {
    override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        let seconds = Double(ProcessInfo.processInfo.environment["BAD_PROVIDER_DELAY_SECONDS"] ?? "") ?? 3
        try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
        await correct.enumerateContent(in: page, for: observer)
    }
}
