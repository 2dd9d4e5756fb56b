// bad-store-provider: the template provider (its own store: the app's ContactItems.json, checked
// with `--backend seed-json`) with one flaw of a provider that keeps its own store, chosen by the
// environment variable BAD_STORE_BUG (the provider inherits the environment of `contacts-host
// conformance`):
//
//   fingerprint-without-phone  change detection leaves the phone number out of its fingerprint, so an
//                              edit of the phone alone never reaches the system. The kit's edits
//                              used to change `note` and `jobTitle` only, which this store cannot
//                              hold: they were no-ops and the flaw passed. Caught by D2 (issue 30, item 11).
//   expires-on-read-error      a read of the app's file that fails for a moment (the app writes it in
//                              place) is answered with pageExpired / changeAnchorExpired, which makes
//                              the system discard every contact of the domain. Caught by T1 (item 10).
//
// The same files as Examples/template-provider (linked), which has neither flaw.

import ContactProvider
import ExtensionFoundation
import Foundation
import KnownBadProviders

@main
class BadStoreProvider: ContactProviderExtension {
    private let enumerator: any ContactItemEnumerator

    required init() {
        switch ProcessInfo.processInfo.environment["BAD_STORE_BUG"] ?? "" {
        case "fingerprint-without-phone": enumerator = FingerprintWithoutPhoneEnumerator()
        case "expires-on-read-error": enumerator = ExpiresOnReadErrorEnumerator(wrapping: RootContainerEnumerator())
        case let bug:
            FileHandle.standardError.write(
                Data("bad-store-provider: set BAD_STORE_BUG (unknown: '\(bug)'); running without a flaw\n".utf8))
            enumerator = RootContainerEnumerator()
        }
    }

    func configure(for domain: ContactProviderDomain) {}

    func enumerator(for collection: ContactItem.Identifier) -> ContactItemEnumerator { enumerator }

    func invalidate() async throws {}
}

/// Leaves the phone number out of the fingerprint the template compares to find updates.
final class FingerprintWithoutPhoneEnumerator: RootContainerEnumerator {
    override func fingerprint(of item: ContactItemDatabase.ContactItemJSON) -> String {
        [item.firstName, item.lastName, item.emailAddress ?? ""].joined(separator: "\u{1F}")
    }
}

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
