import AppGroupStore
import Foundation

extension ContactSearch {
    /// The app database's name index (`contacts/name-index`): each snapshot contact's folded name words.
    /// Derived data (see ``SearchIndex``); bump the version whenever `nameWords` changes.
    package static let nameIndex = SearchIndex(
        fileName: "name-index", keysVersion: "name-1", fields: nameFields,
        appendKeys: { appendNameKeys($0, to: &$1) },
        fieldKeys: SearchIndex.FieldKeys(fields: nameFields, append: { appendKeys(utf8: $0, to: &$1) }),
        keys: { nameWords($0) })

    /// The contacts of `store` that match `query`, in the store's order — the same answer as
    /// `search(store.load().contacts, query)`. A name query reads the name index (built on the
    /// first search after the snapshot changes) instead of decoding every contact; other queries scan.
    package static func search<Meta>(_ store: JournaledStore<Meta>, _ query: Query) throws -> [ContactRecord] {
        try searchReportingIndex(store, query).contacts
    }

    /// `search(_:_:)`, and how the name index was used (nil: the query did not use it).
    package static func searchReportingIndex<Meta>(_ store: JournaledStore<Meta>, _ query: Query) throws
        -> (contacts: [ContactRecord], index: SearchIndexUse?)
    {
        var found: [ContactRecord] = []
        let use = try forEachMatch(store, query) { found.append($0) }
        return (found, use)
    }

    /// `search(_:_:)` streamed (issue 44): each match is given to `body` as it is decoded, in the
    /// store's order, and none is kept. A name query holds one byte range per index candidate; an
    /// e-mail or phone query decodes one contact at a time (``JournaledStore/forEachContact(count:_:)``).
    /// Either way memory is bounded by the identifiers and the journal, not by the matches or the book.
    ///
    /// - Returns: how the name index was used (nil: the query did not use it).
    @discardableResult
    package static func forEachMatch<Meta>(
        _ store: JournaledStore<Meta>, _ query: Query, _ body: (ContactRecord) throws -> Void
    ) throws -> SearchIndexUse? {
        guard case .name(let text) = query else {
            try store.forEachContact { if matches($0, query: query) { try body($0) } }
            return nil
        }
        let wanted = words(text)
        guard !wanted.isEmpty else { return nil }
        let asciiQuery = wanted.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
        let queryBytes = wanted.map { Array($0.utf8) }
        return try store.search(
            nameIndex,
            candidate: { keys in
                // ASCII keys and query: a byte prefix is a Character prefix (words hold no CR LF).
                // Anything else: the very comparison `matches` makes, on the same words.
                if asciiQuery, !keys.contains(where: { $0 >= 0x80 }) {
                    return queryBytes.allSatisfy { word in keysContainPrefix(keys, word) }
                }
                let names = keys.split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
                return wanted.allSatisfy { word in names.contains { $0.hasPrefix(word) } }
            },
            matches: { matches($0, nameWords: wanted) }, found: body)
    }

    /// Whether some space-separated key of `keys` starts with `word`.
    private static func keysContainPrefix(_ keys: UnsafeRawBufferPointer, _ word: [UInt8]) -> Bool {
        var start = 0
        let count = keys.count
        while start < count {
            var end = start
            while end < count, keys[end] != 0x20 { end += 1 }
            if end - start >= word.count {
                var equal = true
                for index in 0..<word.count where keys[start + index] != word[index] {
                    equal = false
                    break
                }
                if equal { return true }
            }
            start = end + 1
        }
        return false
    }
}

extension ContactSearch {
    /// The derived indexes `search` reads, for whoever opens the app database to register (see
    /// ``AppGroupStore/JournaledStore/derivedIndexes``), so that every new snapshot gets them written.
    package static let derivedIndexes: [SearchIndex] = [nameIndex]
}

extension AppDatabase {
    /// The database of `appGroup` with ``ContactSearch/derivedIndexes`` registered: a compaction,
    /// import or `replaceAll` through it writes the name index for its new snapshot in the same pass,
    /// so the first `search --name` after it reads the index instead of rebuilding it.
    package static func searchable(appGroup: AppGroup = .current) -> AppDatabase {
        AppDatabase(appGroup: appGroup, derivedIndexes: ContactSearch.derivedIndexes)
    }
}
