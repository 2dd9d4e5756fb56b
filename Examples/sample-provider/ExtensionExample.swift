// The extension's main file in the shape of Apple's documentation sample: only
// `import ContactProvider` (which makes Foundation visible, as on iOS: `Data` and, for network
// code, `URLSession` below; on Linux it lives in FoundationNetworking, re-exported too).

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

    /// How a provider backed by a server fetches its vCards (not called by the tests, which keep
    /// everything local; it is here to show network code compiles with only this import).
    func download(from url: URL) async throws -> Data {
        let (data, response) = try await URLSession.shared.data(from: url)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
        return data
    }
}
