// The bug (a provider with its own store: the template's ContactItems.json, `--backend seed-json`):
// change detection leaves the phone number out of its fingerprint, so an edit of the phone alone
// never reaches the system. The kit's edits used to change `note` and `jobTitle` only, which this
// store cannot hold: they were no-ops and the flaw passed. Caught by D2 (issue 30, item 11).

/// Leaves the phone number out of the fingerprint the template compares to find updates.
final class FingerprintWithoutPhoneEnumerator: RootContainerEnumerator {
    override func fingerprint(of item: ContactItemDatabase.ContactItemJSON) -> String {
        [item.firstName, item.lastName, item.emailAddress ?? ""].joined(separator: "\u{1F}")
    }
}
