// A Contact Provider extension that syncs an address book from a CardDAV server (RFC 6352) with
// WebDAV collection sync (RFC 6578), written as it would be for iOS: `@main`, `URLSession`
// (FoundationNetworking on Linux, re-exported by `import ContactProvider`) and `XMLParser`
// (FoundationXML on Linux). No outside packages.
//
// Configuration: `carddav.json` in the App Group (`contacts-host carddav configure` writes it):
//     {"url": "https://dav.example.com/addressbooks/me/contacts/", "username": "me", "passwordFile": "/path/0600"}
// The password is read from its file, never from a command line, and never logged.

import ContactProvider

@main
final class CardDAVProvider: ContactProviderExtension {
    /// The App Group this extension shares with its app (the simulator maps every identifier to
    /// the App Group directory it was started with).
    static let appGroupIdentifier = "group.com.example.carddavprovider"

    private let rootContainerEnumerator: CardDAVEnumerator

    required init() {
        let container =
            FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: Self.appGroupIdentifier)
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        rootContainerEnumerator = CardDAVEnumerator(container: container)
    }

    func configure(for domain: ContactProviderDomain) {
        // One domain, one address book: the configuration file names it.
    }

    func enumerator(for collection: ContactItem.Identifier) -> any ContactItemEnumerator {
        rootContainerEnumerator
    }

    func invalidate() async {
        await rootContainerEnumerator.invalidate()
    }
}
