// The bug (a provider with its own store: the template's ContactItems.json, `--backend seed-json`, or
// the CardDAV example's server, `--backend carddav:URL`; or the demo's App Group database, read
// through ProviderDataSource): a read of the app's file that fails for a moment (the app writes it in
// place), a request the server answers with 503 for a moment, or a database read that meets an
// unreadable journal line, is answered with pageExpired / changeAnchorExpired, which makes the system
// discard every contact of the domain. Caught by T1 (issue 30, item 10; over CardDAV and the App
// Group database, issue 43, item 10).

import ContactProvider
import KnownBadProviders

/// Turns the template's resumable read error into the expiry errors ("start over, to be safe").
final class ExpiresOnReadErrorEnumerator: ForwardingEnumerator {
    override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        await correct.enumerateContent(in: page, for: ExpiringContentObserver(observer))
    }

    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        await correct.enumerateChanges(startingAt: syncAnchor, for: ExpiringChangeObserver(observer))
    }
}

private final class ExpiringContentObserver: ForwardingContentObserver {
    override func didFinishEnumeratingContentWithError(_ error: any Error) {
        next.didFinishEnumeratingContentWithError(ContactProviderError.pageExpired)
    }
}

private final class ExpiringChangeObserver: ForwardingChangeObserver {
    override func didFinishEnumeratingChangesWithError(_ error: any Error) {
        next.didFinishEnumeratingChangesWithError(ContactProviderError.changeAnchorExpired)
    }
}
