// Syncing a server without RFC 6578 sync-collection, as mature clients (DAVx5, vdirsyncer) do: a
// PROPFIND Depth 1 listing of every member's getetag, diffed against the listing the anchor names.
//
// The "token" of this mode is `etags:<hash of the listing>`. The listing itself is kept in the App
// Group under that hash, so a later change enumeration from the anchor can diff against it. Like
// HrefIdentifiers, it records facts about the server only: a listing saved ahead of a commit that
// never happens is harmless, and a listing that is gone makes the anchor expire (the system lists
// the collection afresh), never a wrong diff.

import Foundation

/// Every member of the collection with its ETag, at one moment.
struct ETagListing: Equatable, Sendable {
    /// The prefix that marks a token of this mode (a server's own sync-token never starts with it in
    /// practice; one that did would only make a change enumeration diff against no saved listing, and
    /// expire).
    static let tokenPrefix = "etags:"

    /// Member href → ETag.
    let etags: [String: String]
    /// The token naming this listing: equal listings give equal tokens (computed once: it hashes the
    /// whole listing, and a sync asks for it several times).
    let token: String

    init(etags: [String: String]) {
        self.etags = etags
        token = Self.token(of: etags)
    }

    private static func token(of etags: [String: String]) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x8422_2325_cbf2_9ce4
        for href in etags.keys.sorted() {
            for byte in Array("\(href)\t\(etags[href] ?? "")\n".utf8) {
                first = (first ^ UInt64(byte)) &* 0x100_0000_01b3
                second = (second ^ UInt64(byte)) &* 0x100_0000_01b3 &+ 1
            }
        }
        return tokenPrefix + String(first, radix: 16) + String(second, radix: 16)
    }

    /// What changed from `earlier` to this listing: members new or with another ETag, and members gone.
    func changes(since earlier: ETagListing) -> (changed: [String], removed: [String]) {
        let changed = etags.filter { earlier.etags[$0.key] != $0.value }.map(\.key)
        let removed = earlier.etags.keys.filter { etags[$0] == nil }
        return (changed, Array(removed))
    }
}

/// The listings an anchor may name, in `carddav-state/etag-listings/<token>.json`; the newest few are kept.
struct ETagListingStore: Sendable {
    /// How many listings are kept: the committed anchor's and those of batches not yet committed.
    /// An anchor whose listing was dropped expires, which costs a re-enumeration and loses nothing.
    static let kept = 4

    let directory: URL

    init(stateDirectory: URL) {
        directory = stateDirectory.appendingPathComponent("etag-listings", isDirectory: true)
    }

    private func file(for token: String) -> URL {
        // The token is `etags:` and hex digits; anything else is never a file name here.
        let name = token.dropFirst(ETagListing.tokenPrefix.count)
        return directory.appendingPathComponent("\(name).json")
    }

    /// The listing `token` names, or nil when it was never saved or has been dropped.
    func listing(for token: String) -> ETagListing? {
        let name = token.dropFirst(ETagListing.tokenPrefix.count)
        guard token.hasPrefix(ETagListing.tokenPrefix), !name.isEmpty, name.allSatisfy(\.isHexDigit),
            let data = try? Data(contentsOf: file(for: token)),
            let etags = try? JSONDecoder().decode([String: String].self, from: data)
        else { return nil }
        return ETagListing(etags: etags)
    }

    /// Saves `listing` under its token (atomically) and drops all but the newest ``kept``.
    func save(_ listing: ETagListing) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let target = file(for: listing.token)
        if FileManager.default.fileExists(atPath: target.path) {
            // Seen again: make it the newest, so pruning keeps it.
            try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: target.path)
        } else {
            try JSONEncoder().encode(listing.etags).write(to: target, options: .atomic)
        }
        let files =
            (try? FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: [.contentModificationDateKey]))
            ?? []
        let newestFirst = files.filter { $0.pathExtension == "json" }.sorted {
            let a =
                (try? $0.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
            let b =
                (try? $1.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
            return a > b
        }
        for stale in newestFirst.dropFirst(Self.kept) where stale != target {
            try? FileManager.default.removeItem(at: stale)
        }
    }
}
