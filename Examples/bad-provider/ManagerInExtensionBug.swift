// The bug: the extension creates a ContactProviderManager to signal itself ("sync again when the
// page is done"), code that belongs in the app. Apple's documentation reserves the manager for the app
// (R13); the manager's initializer throws extensionNotFound in an extension, which this provider
// swallows, so nothing breaks and only the system's warning shows it. Caught by W1 (issue 40).

import ContactProvider
import Foundation
import KnownBadProviders

final class ManagerInExtensionEnumerator: ForwardingEnumerator {
    override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        await correct.enumerateContent(in: page, for: observer)
        if let manager = try? ContactProviderManager() {
            try? await manager.signalEnumerator()
        }
    }
}
