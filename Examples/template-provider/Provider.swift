// The extension's main file as Xcode's "Contact Provider Extension" template writes it
// (with `import ExtensionFoundation`), compiled unchanged.

import ContactProvider
import ExtensionFoundation

@main
class Provider: ContactProviderExtension {
    private let rootContainerEnumerator: RootContainerEnumerator

    required init() {
        rootContainerEnumerator = RootContainerEnumerator()
    }

    func configure(for domain: ContactProviderDomain) {
        rootContainerEnumerator.configure(for: domain)
    }

    func enumerator(for collection: ContactItem.Identifier) -> ContactItemEnumerator {
        return rootContainerEnumerator
    }

    func invalidate() async throws {
        // Stop any enumeration and clean up: the extension will be terminated.
    }
}
