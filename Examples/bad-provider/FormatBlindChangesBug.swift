// The bug: the provider decides whether a contact changed by a fingerprint of its values lowercased,
// without whitespace and without a phone number's punctuation ("the same name, the same number"), and
// skips updates whose fingerprint it already sent. An edit that changes only capitalisation, spacing
// or a phone's punctuation never reaches the system, which keeps the old spelling. The kit's random
// edits change whole values and never showed it (issue 43, class 3). Caught by D2; and by D6, since
// what was sent is remembered as it is handed over, so a batch asked for again loses what it sent.

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class FormatBlindChangesEnumerator: ForwardingEnumerator {
    private let lock = NSLock()
    /// Where the fingerprints are kept across launches (the provider's own file in the App Group).
    private let file = URL(fileURLWithPath: AppGroup.current.path + "/format-blind-fingerprints.json")

    override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        await correct.enumerateContent(in: page, for: ContentFingerprints(observer, owner: self))
    }

    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        await correct.enumerateChanges(startingAt: syncAnchor, for: ChangeFilter(observer, owner: self))
    }

    /// The items whose fingerprint differs from the one sent, remembering theirs.
    func changed(_ items: [ContactItem], remember: Bool) -> [ContactItem] {
        lock.withLock {
            var sent = (try? JSONDecoder().decode([String: String].self, from: Data(contentsOf: file))) ?? [:]
            let changed = items.filter { item in
                let record = ContactRecord(item)
                let print = Self.fingerprint(record)
                defer { sent[record.identifier] = print }
                return remember || sent[record.identifier] != print
            }
            try? JSONEncoder().encode(sent).write(to: file)
            return changed
        }
    }

    /// Values compared case- and whitespace-insensitively, phones by their digits.
    private static func fingerprint(_ record: ContactRecord) -> String {
        var copy = record
        copy.phoneNumbers = copy.phoneNumbers.map { phone in
            var digits = phone
            digits.value = phone.value.filter(\.isNumber)
            return digits
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let encoded = (try? encoder.encode(copy)).flatMap { String(data: $0, encoding: .utf8) } ?? ""
        return encoded.lowercased().filter { !$0.isWhitespace }
    }
}

private final class ContentFingerprints: ForwardingContentObserver {
    let owner: FormatBlindChangesEnumerator
    init(_ next: any ContactItemContentObserver, owner: FormatBlindChangesEnumerator) {
        self.owner = owner
        super.init(next)
    }
    override func didEnumerate(_ items: [ContactItem]) { next.didEnumerate(owner.changed(items, remember: true)) }
}

private final class ChangeFilter: ForwardingChangeObserver {
    let owner: FormatBlindChangesEnumerator
    init(_ next: any ContactItemChangeObserver, owner: FormatBlindChangesEnumerator) {
        self.owner = owner
        super.init(next)
    }
    override func didUpdate(_ items: [ContactItem]) {
        let changed = owner.changed(items, remember: false)
        if !changed.isEmpty { next.didUpdate(changed) }
    }
}
