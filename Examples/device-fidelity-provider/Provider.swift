// A provider written the way real iOS providers are, with two habits that only work because an iOS
// device ends an extension's process without tearing its objects down and persists every
// `UserDefaults` write by itself (cfprefsd):
// - a model object (`ContactBook`) that loads the app's file when created and writes its list back in
//   `deinit` (on a device that deinit never runs at the extension's end);
// - change tracking (what was sent, a change counter) in the App Group's `UserDefaults`, with no
//   `synchronize()` anywhere.
// It logs the way iOS code does, through `import os` (`Logger` and `os_log`), under its bundle's identifier.
// The tests (DeviceFidelityTests) sync it through real processes, kill and relaunch it, and check the
// system ends equal to what the app holds.

import ContactProvider
import Contacts
import Foundation
import os

let appGroupIdentifier = "group.com.example.fidelity"

/// The app's address book as the app and the extension share it: `book.json` in the App Group.
final class ContactBook {
    struct Entry: Codable, Hashable {
        var identifier: String
        var name: String
    }

    static var fileURL: URL? {
        FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroupIdentifier)?
            .appendingPathComponent("book.json")
    }

    var entries: [Entry]

    init() {
        entries =
            Self.fileURL.flatMap { try? Data(contentsOf: $0) }
            .flatMap { try? JSONDecoder().decode([Entry].self, from: $0) } ?? []
    }

    func save() {
        guard let url = Self.fileURL, let data = try? JSONEncoder().encode(entries) else { return }
        try? data.write(to: url, options: .atomic)
    }

    // Saves what it holds when it goes away: harmless on a device, where the extension's process is
    // ended with its objects alive.
    deinit {
        save()
    }
}

@main
final class Provider: ContactProviderExtension {
    // Loaded once, when the extension starts: by the time the extension ends, the app may have written
    // a newer file.
    private let book = ContactBook()
    private let rootEnumerator = Enumerator()

    required init() {}

    // What iOS code reads of its bundle: the identity, the versions shown in an About screen, and the
    // domain's name (the containing app's display name).
    func configure(for domain: ContactProviderDomain) {
        let info = Bundle.main.infoDictionary ?? [:]
        Logger(subsystem: Bundle.main.bundleIdentifier!, category: "bundle").info(
            "\(info["CFBundleDisplayName"] as? String ?? "-", privacy: .public) \(info["CFBundleShortVersionString"] as? String ?? "-", privacy: .public) (\(info["CFBundleVersion"] as? String ?? "-", privacy: .public)) for \(domain.displayName, privacy: .public)"
        )
    }

    func enumerator(for collection: ContactItem.Identifier) -> ContactItemEnumerator {
        rootEnumerator
    }

    func invalidate() async throws {
        _ = book.entries.count
    }
}

final class Enumerator: ContactItemEnumerator {
    private let defaults = UserDefaults(suiteName: appGroupIdentifier)
    // The subsystem as iOS code most often writes it: the bundle's identifier, force-unwrapped.
    private let log = OSLog(subsystem: Bundle.main.bundleIdentifier!, category: "enumerator")
    private let logger = Logger(subsystem: Bundle.main.bundleIdentifier!, category: "sync")

    private func items(_ entries: [ContactBook.Entry]) -> [ContactItem] {
        entries.map { entry in
            let contact = CNMutableContact()
            contact.givenName = entry.name
            return .contact(contact, ContactItem.Identifier(entry.identifier))
        }
    }

    private func fingerprints(_ entries: [ContactBook.Entry]) -> [String: String] {
        Dictionary(entries.map { ($0.identifier, $0.name) }, uniquingKeysWith: { _, last in last })
    }

    func enumerateContent(in page: ContactItemPage, for observer: ContactItemContentObserver) async {
        let entries = ContactBook().entries
        observer.didEnumerate(items(entries))
        observer.didFinishEnumeratingContent(upTo: Data("book-1".utf8))
        os_log("content: %{public}d contacts from %{private}@", log: log, type: .info, entries.count, "book.json")
        defaults?.set(fingerprints(entries), forKey: "sent")
        defaults?.set(0, forKey: "changeCount")
    }

    func enumerateChanges(startingAt syncAnchor: ContactItemSyncAnchor, for observer: ContactItemChangeObserver) async {
        let entries = ContactBook().entries
        let current = fingerprints(entries)
        let sent = defaults?.dictionary(forKey: "sent") as? [String: String] ?? [:]
        let updated = entries.filter { sent[$0.identifier] != $0.name }
        let deleted = sent.keys.filter { current[$0] == nil }.sorted().map { ContactItem.Identifier($0) }
        if !updated.isEmpty { observer.didUpdate(items(updated)) }
        if !deleted.isEmpty { observer.didDelete(deleted) }
        logger.info("changes: \(updated.count) updated, \(deleted.count, privacy: .public) deleted")
        let changeCount = (defaults?.integer(forKey: "changeCount") ?? 0) + 1
        observer.didFinishEnumeratingChanges(
            upTo: ContactItemSyncAnchor(generationMarker: syncAnchor.generationMarker, offset: changeCount),
            moreComing: false)
        defaults?.set(current, forKey: "sent")
        defaults?.set(changeCount, forKey: "changeCount")
    }

    func invalidate() async {}
}
