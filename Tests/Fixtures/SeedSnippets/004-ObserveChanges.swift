// swift-format-ignore-file
// Seed 004, "Watching for Real-Time Changes". Code as written.
import Contacts

func observeChanges(handler: @escaping () -> Void) -> NSObjectProtocol {
    NotificationCenter.default.addObserver(
        forName: .CNContactStoreDidChange,
        object: nil,
        queue: .main
    ) { _ in
        handler()
    }
}
