// The extension's main file in the shape of Apple's documentation sample: only
// `import ContactProvider` (which makes Foundation visible, as on iOS: `Data` below).

import ContactProvider

@main
class ExtensionExample: ContactProviderExtension {
    private let rootContainerEnumerator: VCardEnumerator

    required init() {
        rootContainerEnumerator = VCardEnumerator(generationPrefix: Data("vcards-".utf8))
    }

    func configure(for domain: ContactProviderDomain) {
        // One domain, one folder of vCards: nothing to configure.
    }

    func enumerator(for collection: ContactItem.Identifier) -> any ContactItemEnumerator {
        rootContainerEnumerator
    }

    func invalidate() async {
        await rootContainerEnumerator.invalidate()
    }
}
