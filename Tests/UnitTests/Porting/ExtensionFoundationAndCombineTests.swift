import Combine
import ContactProvider
import ExtensionFoundation
import Foundation
import Testing

/// The modules a ported extension imports besides ContactProvider: ExtensionFoundation's
/// `AppExtension` as a provider sees it, and the Combine stand-in its model files use.
@Suite("Porting: ExtensionFoundation and Combine")
struct ExtensionFoundationAndCombineTests {
    final class Extension: ContactProviderExtension {
        required init() {}
        func configure(for domain: any ContactProviderDomain) {}
        func enumerator(for collection: ContactItem.Identifier) -> any ContactItemEnumerator { fatalError("unused") }
        func invalidate() async throws {}
    }

    /// Accepts any `AppExtension`, as ExtensionKit's host does.
    private func configurationTypeName<E: AppExtension>(of type: E.Type) -> String {
        String(describing: E.Configuration.self)
    }

    @MainActor
    @Test("a ContactProviderExtension is an AppExtension whose configuration the framework supplies")
    func appExtension() {
        let instance: any AppExtension = Extension()
        #expect(instance is any ContactProviderExtension)
        let configuration: any AppExtensionConfiguration = Extension().configuration
        #expect(String(describing: type(of: configuration)) == "ContactProviderExtensionConfiguration")
        #expect(configurationTypeName(of: Extension.self) == "ContactProviderExtensionConfiguration")
    }

    final class Model: ObservableObject {
        @Published var names: [String] = []
        @Published var count = 0
    }

    @Test("@Published sends objectWillChange before the change, then the new value to $property subscribers")
    func published() {
        let model = Model()
        var events: [String] = []
        var subscriptions = Set<AnyCancellable>()
        model.objectWillChange.sink { _ in events.append("will change (names: \(model.names))") }
            .store(in: &subscriptions)
        model.$names.sink { events.append("names \($0)") }.store(in: &subscriptions)
        model.names.append("Ada")
        model.count += 1
        #expect(
            events == [
                "names []", "will change (names: [])", "names [\"Ada\"]", "will change (names: [\"Ada\"])",
            ])
        #expect(model.count == 1)
        subscriptions.removeAll()
        model.names = []
        #expect(events.count == 4, "released subscriptions receive nothing")
    }

    @Test("cancel() ends a subscription; each object has its own objectWillChange")
    func cancellation() {
        let first = Model()
        let second = Model()
        var fired = 0
        let token = first.objectWillChange.sink { _ in fired += 1 }
        second.count = 5
        #expect(fired == 0)
        first.count = 1
        #expect(fired == 1)
        token.cancel()
        first.count = 2
        #expect(fired == 1)
        #expect(first.objectWillChange === first.objectWillChange)
        #expect(first.objectWillChange !== second.objectWillChange)
    }
}
