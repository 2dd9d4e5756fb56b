// The enumerator: content pages from a listing of the address book, changes from the server's
// sync-token (RFC 6578), both fetched with addressbook-multiget.
//
// A server without sync-collection is synced by ETag listings instead (ETagListing.swift); its
// tokens are `etags:<hash>` and go through the same markers and anchors.
//
// Markers and anchors:
// - A content page's generation marker is the sync-token of the listing taken for the first page.
//   A later page whose listing has another token cannot be continued safely (offsets shift when
//   cards come and go), so it answers `pageExpired` and the system starts over.
// - A change anchor at a batch boundary is `token` (offset 0). In the middle of a long change list
//   it is `from seen` (a space never occurs in a URI) at the offset already delivered: changes are listed again from `from`, and if
//   the server's token is no longer `seen` (it changed meanwhile) delivery restarts at offset 0 of
//   the new list; re-delivering an update or a deletion is harmless, skipping one would not be.

import ContactProvider
import Contacts

// A class, not an actor: Apple's requirements pass the page and the observer as plain non-`Sendable`
// parameters, which an actor cannot take in Swift 6 mode (in Xcode as here). The system calls one
// method at a time.
final class CardDAVEnumerator: ContactItemEnumerator {
    private let container: URL
    private var hrefIdentifiers: HrefIdentifiers
    private let listings: ETagListingStore

    init(container: URL) {
        self.container = container
        let state = container.appendingPathComponent("carddav-state", isDirectory: true)
        hrefIdentifiers = HrefIdentifiers(directory: state)
        listings = ETagListingStore(stateDirectory: state)
    }

    private func makeClient() throws -> CardDAVClient {
        try CardDAVClient(configuration: CardDAVConfiguration.load(from: container))
    }

    // MARK: Content

    func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        do {
            let client = try makeClient()
            guard case .changes(let members, _, let token) = try await client.changes(from: "", listings: listings)
            else {
                throw CardDAVError.badResponse(
                    url: client.configuration.url.absoluteString, reason: "an empty sync-token was refused")
            }
            let generation = Data(token.utf8)
            if !page.generationMarker.isEmpty, page.generationMarker != generation {
                observer.didFinishEnumeratingContentWithError(ContactProviderError.pageExpired)
                return
            }
            let hrefs = Self.sortedUnique(members)
            if page.offset == 0 {
                // Forget resources the server no longer has, so a deletion check never sees a ghost.
                hrefIdentifiers.keep(only: Set(hrefs.map(CardDAVClient.normalized)))
            }
            let slice = Array(hrefs.dropFirst(page.offset).prefix(max(1, observer.suggestedPageSize)))
            // A card removed since the listing is missing here; the next change enumeration
            // (from this listing's token) reports its removal.
            let fetched = try await client.multiget(slice)
            let items = try contactItems(fetched.found)
            retiredIdentifiers = []  // a content enumeration replaces everything the system holds
            try hrefIdentifiers.save()
            if !items.isEmpty { observer.didEnumerate(items) }
            let next = page.offset + slice.count
            if next < hrefs.count {
                observer.didFinishEnumeratingPage(upTo: ContactItemPage(generationMarker: generation, offset: next))
            } else {
                observer.didFinishEnumeratingContent(upTo: generation)
            }
        } catch {
            observer.didFinishEnumeratingContentWithError(error)
        }
    }

    // MARK: Changes

    func enumerateChanges(startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver)
        async
    {
        do {
            let client = try makeClient()
            let marker = String(decoding: syncAnchor.generationMarker, as: UTF8.self).split(
                separator: " ", omittingEmptySubsequences: false)
            let from = marker.first.map(String.init) ?? ""
            let seen = marker.count > 1 ? String(marker[1]) : nil
            guard !from.isEmpty,
                case .changes(let changed, let removed, let token) = try await client.changes(
                    from: from, listings: listings)
            else {
                observer.didFinishEnumeratingChangesWithError(ContactProviderError.changeAnchorExpired)
                return
            }
            let removedSet = Set(removed)
            let entries = Self.sortedUnique(changed + removed)
            var offset = syncAnchor.offset
            if seen != token || offset > entries.count { offset = 0 }
            let slice = Array(entries.dropFirst(offset).prefix(max(1, observer.suggestedBatchSize)))

            let fetched = try await client.multiget(slice.filter { !removedSet.contains($0) })
            let updates = try contactItems(fetched.found)
            let updatedIdentifiers = Set(updates.map { $0.contactIdentifier })
            var deletions: [ContactItem.Identifier] = []
            for href in slice.filter(removedSet.contains) + fetched.missing {
                let key = CardDAVClient.normalized(href)
                // A card without a UID is known by its href; an unknown href may be one of those.
                let identifier = hrefIdentifiers.identifier(of: key) ?? key
                hrefIdentifiers.markRemoved(key)
                if updatedIdentifiers.contains(identifier) || hrefIdentifiers.isHeldElsewhere(identifier, than: key) {
                    continue  // the card moved to another resource: it is not deleted
                }
                deletions.append(ContactItem.Identifier(identifier))
            }
            deletions.append(contentsOf: retiredIdentifiers)
            retiredIdentifiers = []
            try hrefIdentifiers.save()

            if !updates.isEmpty { observer.didUpdate(updates) }
            if !deletions.isEmpty { observer.didDelete(deletions) }
            let next = offset + slice.count
            if next < entries.count {
                let midway = Data("\(from) \(token)".utf8)
                observer.didFinishEnumeratingChanges(
                    upTo: ContactItemSyncAnchor(generationMarker: midway, offset: next), moreComing: true)
            } else {
                observer.didFinishEnumeratingChanges(
                    upTo: ContactItemSyncAnchor(generationMarker: Data(token.utf8), offset: 0), moreComing: false)
            }
        } catch {
            observer.didFinishEnumeratingChangesWithError(error)
        }
    }

    func invalidate() async {
        // Nothing is held open between calls: each sync reads the configuration and opens its session.
    }

    // MARK: Cards

    /// Identifiers whose card changed its UID in place during this batch: the old one is deleted.
    private var retiredIdentifiers: [ContactItem.Identifier] = []

    /// Decodes fetched cards into items, recording each resource's identifier.
    private func contactItems(_ cards: [(href: String, vCard: String)]) throws -> [ContactItem] {
        var items: [ContactItem] = []
        for card in cards {
            let key = CardDAVClient.normalized(card.href)
            let contacts: [CNContact]
            do {
                contacts = try CNContactVCardSerialization.contacts(with: Data(card.vCard.utf8))
            } catch {
                throw CardDAVVCardError(href: card.href, underlying: error)
            }
            guard let contact = contacts.first, let mutable = contact.mutableCopy() as? CNMutableContact else {
                continue
            }
            let identifier = Self.hasUID(card.vCard) ? contact.identifier : key
            if let previous = hrefIdentifiers.identifier(of: key), previous != identifier,
                !hrefIdentifiers.isHeldElsewhere(previous, than: key)
            {
                retiredIdentifiers.append(ContactItem.Identifier(previous))
            }
            hrefIdentifiers.record(identifier, at: key)
            items.append(.contact(mutable, ContactItem.Identifier(identifier)))
        }
        return items
    }

    /// Whether the vCard text has a UID property (else the codec would invent a content-derived one,
    /// which changes with every edit; the href is stable instead).
    private static func hasUID(_ vCard: String) -> Bool {
        let unfolded = vCard.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\n ", with: "")
        for line in unfolded.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let name = line.prefix { $0 != ":" && $0 != ";" }.uppercased()
            if name == "UID" || name.hasSuffix(".UID") { return line.contains(":") && !line.hasSuffix(":") }
        }
        return false
    }

    /// Hrefs in a stable order (offsets index into it), each once.
    private static func sortedUnique(_ hrefs: [String]) -> [String] {
        var seen = Set<String>()
        return hrefs.sorted().filter { seen.insert($0).inserted }
    }
}

/// A card on the server that the vCard codec cannot read: names the resource and the codec's reason.
struct CardDAVVCardError: Error, LocalizedError {
    let href: String
    let underlying: any Error
    var errorDescription: String? {
        "the vCard at \(href) cannot be read: \((underlying as? any LocalizedError)?.errorDescription ?? "\(underlying)")"
    }
}

extension ContactItem {
    /// The item's identifier as a string.
    fileprivate var contactIdentifier: String {
        switch self {
        case .contact(_, let identifier): return identifier.value
        }
    }
}
