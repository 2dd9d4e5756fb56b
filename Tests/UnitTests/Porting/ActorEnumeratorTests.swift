import ContactProvider
import Contacts
import Foundation
import TestSupport
import Testing

/// Issue 23, item 5: the API surface is Apple's, so what compiles here compiles in Xcode and what
/// Xcode refuses is refused here. The requirements take plain non-`Sendable` parameters (no
/// `sending`), and `ContactItem.Identifier`, `ContactItemPage`, `ContactItemSyncAnchor` and
/// `ContactProviderManager` are not `Sendable`: an `actor` enumerator gets Xcode's errors in Swift 6
/// mode, and the class shape of Apple's samples compiles and is driven by hand with a plain observer.
@Suite("Porting: the enumerator surface is Apple's (actors refused in Swift 6, classes driven by hand)")
struct ActorEnumeratorTests {
    final class CountingEnumerator: ContactItemEnumerator {
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

    /// A plain class, as a test written for iOS has it: nothing is `sending`, so it is read after the call.
    final class RecordingObserver: ContactItemContentObserver {
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

    @Test("a class enumerator driven by hand with a plain observer")
    func drivenByHand() async {
        let enumerator = CountingEnumerator()
        let observer = RecordingObserver()
        await enumerator.enumerateContent(in: .initialPage, for: observer)
        #expect(observer.identifiers == ["ada"])
        #expect(observer.marker == Data("g1".utf8))
        #expect(enumerator.calls == 1)
    }

    static func typeCheckErrors(_ source: String) throws -> [String] {
        try TypeCheck.errors(source)
    }

    /// Code Xcode refuses with Apple's SDK in Swift 6 mode, and the error it names.
    static let refused: [(name: String, source: String, error: String)] = [
        (
            "an actor enumerator",
            """
            import ContactProvider
            actor Enumerator: ContactItemEnumerator {
                func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {}
                func enumerateChanges(startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver) async {}
                func invalidate() async {}
            }
            """,
            "cannot be sent from caller of protocol requirement 'enumerateContent(in:for:)' into actor-isolated implementation"
        ),
        (
            "a page passed as Sendable",
            "import ContactProvider\nlet value: any Sendable = ContactItemPage.initialPage\n",
            "type 'ContactItemPage' does not conform to the 'Sendable' protocol"
        ),
        (
            "an identifier passed as Sendable",
            "import ContactProvider\nlet value: any Sendable = ContactItem.Identifier(\"x\")\n",
            "type 'ContactItem.Identifier' does not conform to the 'Sendable' protocol"
        ),
        (
            "an anchor passed as Sendable",
            "import ContactProvider\nfunc f(_ a: ContactItemSyncAnchor) -> any Sendable { a }\n",
            "type 'ContactItemSyncAnchor' does not conform to the 'Sendable' protocol"
        ),
        (
            "the manager passed as Sendable",
            "import ContactProvider\nfunc f(_ m: ContactProviderManager) -> any Sendable { m }\n",
            "type 'ContactProviderManager' does not conform to the 'Sendable' protocol"
        ),
    ]

    @Test("what Xcode refuses with Apple's SDK in Swift 6 mode is refused here with the same error", arguments: 0..<5)
    func refusedAsInXcode(index: Int) throws {
        let (name, source, error) = Self.refused[index]
        let errors = try Self.typeCheckErrors(source)
        #expect(errors.contains { $0.contains(error) }, "\(name): expected an error containing \(error); got \(errors)")
    }

    @Test("the class shape of Apple's samples type-checks in Swift 6 mode")
    func classShapeAccepted() throws {
        let errors = try Self.typeCheckErrors(
            """
            import ContactProvider
            import Foundation
            final class Enumerator: ContactItemEnumerator {
                func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
                    observer.didFinishEnumeratingContent(upTo: Data())
                }
                func enumerateChanges(startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver) async {
                    observer.didFinishEnumeratingChanges(upTo: syncAnchor, moreComing: false)
                }
                func invalidate() async {}
            }
            """)
        #expect(errors.isEmpty, "\(errors)")
    }
}
