// An enumerator for a provider that keeps each contact as a vCard file in the App Group
// (`vcards/<identifier>.vcf`, written by the app) and builds `CNContact`s with
// `CNContactVCardSerialization`, as real providers that sync a mail or CRM account do.
//
// Its generation marker names the folder's state (every file's name, size and modification
// time). While that state is unchanged there is nothing to report; once it changes, the anchor
// has expired and the system re-enumerates the whole content, which also removes deleted contacts.

import ContactProvider
import Contacts
import Foundation

// A class, not an actor: Apple's requirements pass the page and the observer as plain non-`Sendable`
// parameters, so in Swift 6 mode an actor cannot implement them ("non-Sendable parameter type … cannot
// be sent … into actor-isolated implementation", in Xcode as here). The system calls one method at a
// time, so the class needs no lock for its flag.
final class VCardEnumerator: ContactItemEnumerator {
    private let generationPrefix: Data
    private var invalidated = false

    init(generationPrefix: Data) {
        self.generationPrefix = generationPrefix
    }

    private var folder: URL? {
        FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.vcardprovider")?
            .appendingPathComponent("vcards", isDirectory: true)
    }

    /// The vCard files, sorted by name so pages are stable.
    private func files() -> [URL] {
        guard let folder,
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".vcf") }.sorted().map { folder.appendingPathComponent($0) }
    }

    private func generation(of files: [URL]) -> Data {
        var state = ""
        for file in files {
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
            let size = (attributes?[.size] as? NSNumber)?.intValue ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            state += "\(file.lastPathComponent):\(size):\(modified);"
        }
        var hasher = StableHash()
        hasher.combine(state)
        return generationPrefix + Data(String(hasher.value, radix: 16).utf8)
    }

    func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        let files = files()
        let generation = generation(of: files)
        // A page of another generation cannot be continued: start over.
        if !page.generationMarker.isEmpty, page.generationMarker != generation {
            observer.didFinishEnumeratingContentWithError(ContactProviderError.pageExpired)
            return
        }
        let pageSize = max(1, observer.suggestedPageSize)
        let slice = files.dropFirst(page.offset).prefix(pageSize)
        var items: [ContactItem] = []
        for file in slice {
            do {
                let data = try Data(contentsOf: file)
                for contact in try CNContactVCardSerialization.contacts(with: data) {
                    guard let mutable = contact.mutableCopy() as? CNMutableContact else { continue }
                    let identifier = file.deletingPathExtension().lastPathComponent
                    items.append(.contact(mutable, ContactItem.Identifier(identifier)))
                }
            } catch {
                observer.didFinishEnumeratingContentWithError(error)
                return
            }
        }
        if !items.isEmpty { observer.didEnumerate(items) }
        let next = page.offset + slice.count
        if next < files.count {
            observer.didFinishEnumeratingPage(upTo: ContactItemPage(generationMarker: generation, offset: next))
        } else {
            observer.didFinishEnumeratingContent(upTo: generation)
        }
    }

    func enumerateChanges(startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver)
        async
    {
        if syncAnchor.generationMarker == generation(of: files()) {
            observer.didFinishEnumeratingChanges(upTo: syncAnchor, moreComing: false)
        } else {
            observer.didFinishEnumeratingChangesWithError(ContactProviderError.changeAnchorExpired)
        }
    }

    func invalidate() async {
        invalidated = true
    }
}

/// FNV-1a: a hash that is the same in every process (Swift's `Hasher` is seeded per process).
struct StableHash {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func combine(_ text: String) {
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
    }
}
