// bad-provider: the known-bad providers of the conformance kit's tests, in one executable. The flaw
// is chosen by the environment variable BAD_PROVIDER_BUG (the provider inherits the environment of
// `contacts-host conformance`); the values, what each breaks and the rule that catches it are the
// catalogue in Flaw.swift, one file per flaw (the four oldest, and the forwarding observers every
// flaw is written with, live in Examples/KnownBadProviders, which the kit's own tests use in process).
//
// Each breaks exactly one thing of a correct enumerator: the demo provider's, or for the flaws of a
// provider with its own store, the template's (its ContactItems.json, checked with `--backend
// seed-json`), whose files are linked here unchanged.

import ContactProvider
import ExampleProviders
import Foundation

@main
final class BadProvider: ContactProviderExtension {
    private let rootContainerEnumerator: any ContactItemEnumerator

    required init() {
        let bug = ProcessInfo.processInfo.environment["BAD_PROVIDER_BUG"] ?? ""
        if let flaw = Flaw(rawValue: bug) {
            rootContainerEnumerator = flaw.enumerator()
        } else {
            FileHandle.standardError.write(
                Data("bad-provider: set BAD_PROVIDER_BUG (unknown: '\(bug)'); running without a bug\n".utf8))
            rootContainerEnumerator = DemoEnumerator()
        }
    }

    func configure(for domain: any ContactProviderDomain) {}

    func enumerator(for collection: ContactItem.Identifier) -> any ContactItemEnumerator {
        rootContainerEnumerator
    }

    func invalidate() async throws {
        await rootContainerEnumerator.invalidate()
    }
}
