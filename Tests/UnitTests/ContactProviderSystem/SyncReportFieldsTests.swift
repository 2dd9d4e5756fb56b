import Foundation
import Testing

@testable import ContactProviderSystem

/// Issue 46: a sync report's fields are declared once, as `SyncReport`'s stored properties and
/// their keys (`SyncReport.CodingKeys`); the reply's coder and the host's JSON switch over the keys,
/// which the compiler checks. It does not check that every stored property has its key: a property
/// without one would be left out of every coder, silently. This does.
@Suite("Sync report fields: declared once, each property with its key")
struct SyncReportFieldsTests {
    @Test("every stored property of SyncReport has its CodingKeys case, in the order they are declared")
    func everyPropertyHasItsKey() {
        let properties = Mirror(reflecting: SyncReport(enumeration: "content")).children.compactMap(\.label)
        #expect(properties == SyncReport.CodingKeys.allCases.map(\.stringValue))
    }

    @Test("the reply's fast reader numbers exactly the declared keys")
    func replyKeysAreTheDeclaredOnes() {
        #expect(ReplyCoding.reportKeyNames == properties())
        #expect(Set(ReplyCoding.reportFieldsSorted) == Set(SyncReport.CodingKeys.allCases))
        #expect(ReplyCoding.reportFieldsSorted.map(\.stringValue) == properties().sorted())
    }

    private func properties() -> [String] {
        Mirror(reflecting: SyncReport(enumeration: "content")).children.compactMap(\.label)
    }
}
