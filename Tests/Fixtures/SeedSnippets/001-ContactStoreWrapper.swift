// swift-format-ignore-file
// Not from a seed: the Swift stand-in for seed 001's Objective-C ContactStoreWrapper (.h/.m), which
// calls -[CNContactStore enumeratorForChangeHistoryFetchRequest:error:] — a call Apple's SDK does not
// let Swift make. Here the app's wrapper calls the simulator's ContactsChangeHistory instead; built for
// iOS, the seed's Objective-C files take its place. Same interface as the seed's header (NSError ** is an
// UnsafeMutablePointer here: Linux has no NSErrorPointer).
import Contacts
import Foundation

final class ContactStoreWrapper: NSObject {
    private let store: CNContactStore

    init(store: CNContactStore) {
        self.store = store
    }

    override convenience init() {
        self.init(store: CNContactStore())
    }

    /// `- (CNFetchResult *)changeHistoryFetchResult:(CNChangeHistoryFetchRequest *)request error:(NSError **)error`
    func changeHistoryFetchResult(
        _ request: CNChangeHistoryFetchRequest, error: UnsafeMutablePointer<NSError?>?
    ) -> CNFetchResult<NSEnumerator> {
        do {
            return try ContactsChangeHistory.enumerator(for: request, in: store)
        } catch let failure as NSError {
            // The header promises a result (NS_ASSUME_NONNULL); the Objective-C method returns nil on
            // failure anyway, which Swift code reading it would trap on: this traps at once, saying why.
            error?.pointee = failure
            preconditionFailure("changeHistoryFetchResult failed: \(failure)")
        }
    }
}
