import AppGroupStore
import ContactProviderSystem
import Foundation

/// Maps an error a provider passes to a `…WithError` call onto the system's codes.
func providerErrorCode(_ error: any Error) -> (ProviderErrorCode?, String) {
    if let known = error as? ContactProviderError {
        return (known.code, known.errorDescription ?? "\(known)")
    }
    // A provider's own errors (a `CNError` from a malformed vCard, say) describe themselves best.
    if let described = (error as? any LocalizedError)?.errorDescription {
        return (nil, described)
    }
    return (nil, String(describing: error))
}

/// The system's `ContactItemContentObserver`: converts items to records as they arrive
/// (the provider may mutate its `CNMutableContact`s afterwards) and forwards to the engine.
struct SystemContentObserver: ContactItemContentObserver {
    let core: ContentObserverCore

    func didEnumerate(_ items: [ContactItem]) {
        core.didEnumerate(items.map(ContactRecord.init))
    }

    func didFinishEnumeratingPage(upTo nextPage: ContactItemPage) {
        core.didFinishPage(upTo: SyncPosition(generationMarker: nextPage.generationMarker, offset: nextPage.offset))
    }

    func didFinishEnumeratingContent(upTo generationMarker: Data) {
        core.didFinishContent(upTo: generationMarker)
    }

    func didFinishEnumeratingContentWithError(_ error: any Error) {
        let (code, description) = providerErrorCode(error)
        core.didFinishWithError(code: code, description: description)
    }

    var suggestedPageSize: Int { core.suggestedPageSize }
}

/// The system's `ContactItemChangeObserver`.
struct SystemChangeObserver: ContactItemChangeObserver {
    let core: ChangeObserverCore

    func didUpdate(_ items: [ContactItem]) {
        core.didUpdate(items.map(ContactRecord.init))
    }

    func didDelete(_ identifiers: [ContactItem.Identifier]) {
        core.didDelete(identifiers.map(\.value))
    }

    func didFinishEnumeratingChanges(upTo syncAnchor: ContactItemSyncAnchor, moreComing: Bool) {
        core.didFinishBatch(
            upTo: SyncPosition(generationMarker: syncAnchor.generationMarker, offset: syncAnchor.offset),
            moreComing: moreComing)
    }

    func didFinishEnumeratingChangesWithError(_ error: any Error) {
        let (code, description) = providerErrorCode(error)
        core.didFinishWithError(code: code, description: description)
    }

    var suggestedBatchSize: Int { core.suggestedBatchSize }
}

/// Lets the engine drive an Apple-shaped enumerator.
///
/// `@unchecked Sendable`: the engine calls one enumerator method at a time (single consumer)
/// and hands it to a child task only to race it against the page timeout; the enumerator is
/// never touched concurrently by the system.
package struct AppleEnumeratorDriver: EnumeratorDriver, @unchecked Sendable {
    package let enumerator: any ContactItemEnumerator

    package init(_ enumerator: any ContactItemEnumerator) {
        self.enumerator = enumerator
    }

    package func enumerateContent(in page: SyncPosition, observer: ContentObserverCore) async {
        await enumerator.enumerateContent(
            in: ContactItemPage(generationMarker: page.generationMarker, offset: page.offset),
            for: SystemContentObserver(core: observer))
    }

    package func enumerateChanges(from anchor: SyncPosition, observer: ChangeObserverCore) async {
        await enumerator.enumerateChanges(
            startingAt: ContactItemSyncAnchor(generationMarker: anchor.generationMarker, offset: anchor.offset),
            for: SystemChangeObserver(core: observer))
    }

    package func invalidate() async {
        await enumerator.invalidate()
    }
}

/// One instance of an extension type, set up in the order the system guarantees (R15, R16).
package final class ExtensionSession: ProviderSession {
    package let instance: any ContactProviderExtension
    package let driver: any EnumeratorDriver

    /// `init()`, then `configure(for:)`, then `enumerator(for: .rootContainer)`.
    package init(_ type: any ContactProviderExtension.Type, domain: any ContactProviderDomain) {
        instance = type.init()
        instance.configure(for: domain)
        driver = AppleEnumeratorDriver(instance.enumerator(for: .rootContainer))
    }

    package func invalidateExtension() async throws {
        try await instance.invalidate()
    }

    /// Every `UserDefaults` suite's pending writes, to disk (see ``AppGroupPreferences/flushAll()``).
    package func persistState() {
        AppGroupPreferences.flushAll()
    }
}
