import AppGroupStore
import AppStores
import CommandLineToolkit
import ContactProviderSystem
import Foundation
import Glibc

/// The "N of M" of `signal --wait`'s progress lines: N is what the sync delivered so far, M the total
/// the system can know.
///
/// - A content enumeration: N is the contacts in the system store, M the contacts in the app's
///   store (the one `enable --backend` names: the App Group's database by default), read once.
/// - A change enumeration: N is the changes (updates and deletions) committed since the signal, M is
///   N plus the changes the app's database holds after the committed anchor, taken once, at the first
///   line. Only an anchor the app database's own markers make (`SyncMarker`, as `ProviderDataSource`
///   hands out), with the app database as the domain's store, can be counted from; any other store's
///   anchor is opaque, and M is unknown.
///
/// M is unknown (nil) when it cannot be read, or once N passes it (the provider reads a store other
/// than the app database, or the app changed during the sync); the line then shows N alone.
enum SyncProgressCounts {
    /// The store the domain's `configuration` file names (the app database when it names none), or nil
    /// when the file cannot be read.
    private static func storeKind(configuration: String) -> ConformanceBackendKind? {
        guard let loaded = try? DomainConfiguration.load(from: configuration) else { return nil }
        return try? DomainAppStore.kind(of: loaded)
    }

    /// The contacts in the app's store of `appGroup` (for the app database its headers and journal,
    /// not its contacts), or nil when it cannot be read (a CardDAV server is not read here).
    static func appContactCount(appGroup: AppGroup, configuration: String) -> Int? {
        guard let kind = storeKind(configuration: configuration) else { return nil }
        return DomainAppStore.count(kind: kind, appGroup: appGroup)
    }

    /// The changes in the app database of `appGroup` after `anchor` (a contact changed twice counts
    /// twice), or nil when the domain's store is another one, the anchor is not one of the database's
    /// markers, or its changes are gone.
    static func pendingAppChanges(appGroup: AppGroup, configuration: String, after anchor: SyncPosition) -> Int? {
        guard storeKind(configuration: configuration) == .appDatabase else { return nil }
        guard let marker = SyncMarker(data: anchor.generationMarker), !marker.generation.isEmpty, anchor.offset >= 0
        else { return nil }
        let store = AppDatabase(appGroup: appGroup).store
        guard
            case .changes(let entries, _, _)? = try? store.changes(
                after: marker.seq + anchor.offset, in: marker.generation, limit: .max)
        else { return nil }
        let changes = entries.reduce(0) { $0 + ($1.upsert?.count ?? 0) + ($1.delete?.count ?? 0) }
        // The first entry's first `within` changes were delivered already (an entry split across batches).
        return max(0, changes - (entries.isEmpty ? 0 : marker.within))
    }

    /// A total that is known only while it is not below what was delivered.
    static func total(_ total: Int?, delivered: Int) -> Int? {
        guard let total, total >= delivered else { return nil }
        return total
    }

    /// One progress line (without the leading "syncing… " and the elapsed time).
    static func text(phase: SyncState.Phase, delivered: Int, total: Int?, commits: Int) -> String {
        switch phase {
        case .content:
            "content enumeration: " + ofTotal(delivered, total, "contact")
                + " in the system store, \(counted(commits, "page")) so far"
        case .changes:
            "change enumeration: " + ofTotal(delivered, total, "change")
                + ", \(counted(commits, "batch", plural: "batches")) so far"
        }
    }

    /// `3 of 10 contacts`, or `3 contacts (total unknown)`.
    private static func ofTotal(_ delivered: Int, _ total: Int?, _ unit: String) -> String {
        guard let total else { return counted(delivered, unit) + " (total unknown)" }
        return "\(delivered) of \(counted(total, unit))"
    }
}

/// The changes committed to the system store's journal since a byte offset, read incrementally:
/// each read decodes only the entries appended since the last one.
struct DeliveredChanges {
    private let path: String
    private var inode: UInt64
    private var offset: Int
    /// Updates and deletions in the entries read so far.
    private(set) var count = 0
    /// The entries read so far: one per committed page or batch.
    private(set) var entries = 0
    /// Whether the journal was replaced since the signal (a reset: the store starts over).
    private(set) var journalReplaced = false
    /// The phase of the first entry read: the enumeration this sync runs (its state moves to changes
    /// only with a content enumeration's last page).
    private(set) var firstPhase: SyncState.Phase?

    /// Counts from the end of the journal as it is now (`inode`, `size`), the state before the sync.
    init(journal path: String, inode: UInt64, size: Int) {
        self.path = path
        self.inode = inode
        self.offset = size
    }

    /// Reads the entries appended since the last call. A journal replaced meanwhile (a reset starts
    /// content enumeration over; compaction waits until the sync has answered) is counted from its start.
    mutating func refresh() {
        guard let file = try? FileHandle(forReadingFrom: URL(fileURLWithPath: path)) else { return }
        defer { try? file.close() }
        var info = stat()
        guard fstat(file.fileDescriptor, &info) == 0 else { return }
        if UInt64(info.st_ino) != inode {
            // A journal that did not exist at the signal (inode 0) is the store's first, not a replacement.
            journalReplaced = journalReplaced || inode != 0
            inode = UInt64(info.st_ino)
            offset = 0
        }
        guard Int(info.st_size) > offset, (try? file.seek(toOffset: UInt64(offset))) != nil,
            let data = try? file.readToEnd()
        else { return }
        // Complete lines only: a line still being written is read next time.
        guard let lastNewline = data.lastIndex(of: UInt8(ascii: "\n")) else { return }
        let decoder = JSONDecoder()
        for line in data[data.startIndex...lastNewline].split(separator: UInt8(ascii: "\n")) {
            // The header line (a journal read from its start) has no seq and counts nothing.
            guard let entry = try? decoder.decode(EntryCounts.self, from: Data(line)), entry.seq != nil else {
                continue
            }
            entries += 1
            if entries == 1 { firstPhase = entry.meta?.phase }
            count += entry.upsert?.count ?? 0
            count += entry.delete?.count ?? 0
        }
        offset += data.distance(from: data.startIndex, to: lastNewline) + 1
    }

    /// An entry's changes, counted without decoding its contacts.
    private struct EntryCounts: Decodable {
        var seq: Int?
        var upsert: [Skipped]?
        var delete: [Skipped]?
        var meta: Phase?
    }

    /// The sync state's phase alone.
    private struct Phase: Decodable {
        var phase: SyncState.Phase?
    }

    /// Any JSON value, not decoded.
    private struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}
