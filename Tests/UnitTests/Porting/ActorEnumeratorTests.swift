import ContactProvider
import Contacts
import Foundation
import Testing

/// An `actor` enumerator compiles in Swift 6 mode (the observer parameters are `sending`), and a
/// test that drives an enumerator by hand reads its observer afterwards when the observer is
/// `Sendable` (here `@unchecked`: the test touches it from one task at a time).
@Suite("Porting: an actor enumerator driven by hand")
struct ActorEnumeratorTests {
    actor CountingEnumerator: ContactItemEnumerator {
        private(set) var calls = 0

        func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
            calls += 1
            let contact = CNMutableContact()
            contact.givenName = "Ada"
            observer.didEnumerate([.contact(contact, ContactItem.Identifier("ada"))])
            observer.didFinishEnumeratingContent(upTo: Data("g\(calls)".utf8))
        }

        func enumerateChanges(startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver)
            async
        {
            observer.didFinishEnumeratingChanges(upTo: syncAnchor, moreComing: false)
        }

        func invalidate() async {}
    }

    /// Sendable, so the test can read it after handing it to `enumerateContent` (a `sending` parameter).
    final class RecordingObserver: ContactItemContentObserver, @unchecked Sendable {
        var identifiers: [String] = []
        var marker: Data?
        func didEnumerate(_ items: [ContactItem]) {
            for case .contact(_, let identifier) in items { identifiers.append(identifier.value) }
        }
        func didFinishEnumeratingPage(upTo nextPage: ContactItemPage) {}
        func didFinishEnumeratingContent(upTo generationMarker: Data) { marker = generationMarker }
        func didFinishEnumeratingContentWithError(_ error: any Error) {}
        var suggestedPageSize: Int { 10 }
    }

    @Test("the actor runs the enumeration; the observer records it")
    func drivenByHand() async {
        let enumerator = CountingEnumerator()
        let observer = RecordingObserver()
        await enumerator.enumerateContent(in: .initialPage, for: observer)
        #expect(observer.identifiers == ["ada"])
        #expect(observer.marker == Data("g1".utf8))
        #expect(await enumerator.calls == 1)
    }
}
