// vdir-provider: an example provider whose store is a vdir (a directory of .vcf files, one per
// contact) with its own change tracking in the App Group (see VdirStore/VdirLayout.swift).
// It is checked by the conformance kit through its adapters: `--backend exec:vdir-adapter`.

import ContactProvider
import Contacts
import Foundation
import VdirStore

@main
final class VdirProvider: ContactProviderExtension {
    private let rootContainerEnumerator = VdirEnumerator()

    required init() {}

    func configure(for domain: ContactProviderDomain) {}

    func enumerator(for collection: ContactItem.Identifier) -> ContactItemEnumerator {
        rootContainerEnumerator
    }

    func invalidate() async throws {}
}

/// Pages walk the contacts alive at the content's start (a marker `generation:seq`); change batches
/// walk the change log from an anchor's seq and send each named contact as it is now.
final class VdirEnumerator: ContactItemEnumerator {
    private let reader: VdirReader

    init() {
        let url = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.example.vdir")
        reader = VdirReader(layout: VdirLayout(appGroup: .init(path: url?.path ?? ".")))
    }

    func enumerateContent(in page: ContactItemPage, for observer: ContactItemContentObserver) async {
        do {
            guard let generation = reader.generation() else {
                // No store yet: nothing to send; the marker names "no generation" (seq 0).
                observer.didFinishEnumeratingContent(upTo: Data("none:0".utf8))
                return
            }
            let log = reader.changes(generation)
            var seq = log.count
            if page != .initialPage {
                guard let marker = Marker(page.generationMarker), marker.generation == generation,
                    marker.seq <= log.count
                else {
                    observer.didFinishEnumeratingContentWithError(ContactProviderError.pageExpired)
                    return
                }
                seq = marker.seq
            }
            // The contacts alive at the marker: stable across pages whatever is edited meanwhile
            // (later edits come with the first change enumeration, R29).
            let names = reader.alive(after: log[..<seq])
            let start = min(page.offset, names.count)
            let end = min(start + max(observer.suggestedPageSize, 1), names.count)
            let items = try names[start..<end].compactMap { try reader.contact(name: $0)?.makeItem() }
            if !items.isEmpty { observer.didEnumerate(items) }
            let marker = Marker(generation: generation, seq: seq).data
            if end == names.count {
                observer.didFinishEnumeratingContent(upTo: marker)
            } else {
                observer.didFinishEnumeratingPage(upTo: ContactItemPage(generationMarker: marker, offset: end))
            }
        } catch {
            observer.didFinishEnumeratingContentWithError(error)
        }
    }

    func enumerateChanges(startingAt syncAnchor: ContactItemSyncAnchor, for observer: ContactItemChangeObserver) async {
        do {
            let generation = reader.generation() ?? "none"
            guard let marker = Marker(syncAnchor.generationMarker), marker.generation == generation else {
                observer.didFinishEnumeratingChangesWithError(ContactProviderError.changeAnchorExpired)
                return
            }
            let log = reader.changes(generation)
            guard marker.seq <= log.count else {
                observer.didFinishEnumeratingChangesWithError(ContactProviderError.changeAnchorExpired)
                return
            }
            // Take log lines while they name at most suggestedBatchSize distinct contacts.
            var names: [String] = []
            var consumed = marker.seq
            while consumed < log.count {
                let name = log[consumed].name
                if !names.contains(name) {
                    if names.count == max(observer.suggestedBatchSize, 1) { break }
                    names.append(name)
                }
                consumed += 1
            }
            var updated: [ContactItem] = []
            var deleted: [ContactItem.Identifier] = []
            for name in names {
                if let record = try reader.contact(name: name) {
                    updated.append(record.makeItem())
                } else {
                    deleted.append(ContactItem.Identifier(VdirLayout.identifier(of: name)))
                }
            }
            if !updated.isEmpty { observer.didUpdate(updated) }
            if !deleted.isEmpty { observer.didDelete(deleted) }
            observer.didFinishEnumeratingChanges(
                upTo: ContactItemSyncAnchor(
                    generationMarker: Marker(generation: generation, seq: consumed).data, offset: 0),
                moreComing: consumed < log.count)
        } catch {
            observer.didFinishEnumeratingChangesWithError(error)
        }
    }

    func invalidate() async {}
}

/// `generation:seq`: a generation and a position in its change log.
struct Marker {
    var generation: String
    var seq: Int

    init(generation: String, seq: Int) {
        self.generation = generation
        self.seq = seq
    }

    init?(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        guard let colon = text.lastIndex(of: ":"), let seq = Int(text[text.index(after: colon)...]), seq >= 0 else {
            return nil
        }
        generation = String(text[..<colon])
        self.seq = seq
    }

    var data: Data { Data("\(generation):\(seq)".utf8) }
}
