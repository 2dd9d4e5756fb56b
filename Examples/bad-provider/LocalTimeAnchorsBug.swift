// The bug: change anchors hold a wall-clock time without its time zone ("changed since 2026-12-06
// 14:15:00.250"), formatted and read in the device's zone of the moment, as a provider does that
// asks its store for the rows modified since the last sync in local time. Within one zone it works.
// When the device moves west between two syncs the same text means a later instant (24 hours later
// from UTC+14 to UTC−10): every edit since the last sync looks older than the anchor and is lost.
// Caught by D2, the provider relaunched in another time zone between two syncs (issue 43, class 2).
//
// The instants stand for the store's modification times: each anchor the provider hands over is
// kept beside the correct enumerator's anchor it stands for, in a file of the App Group (it survives
// a relaunch), and "changed since T" resumes from the last anchor kept at or before T; nothing was
// modified after a T still to come. An anchor handed over again keeps its time, so a replayed batch
// ends at the same anchor (R37).

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class LocalTimeAnchorsEnumerator: ForwardingEnumerator {
    static let prefix = "changed-since:"

    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        var start = syncAnchor
        if let text = String(data: syncAnchor.generationMarker, encoding: .utf8), text.hasPrefix(Self.prefix) {
            // The bug: the wall-clock time is read in the zone the device is in now.
            guard let since = LocalTimeIndex.formatter().date(from: String(text.dropFirst(Self.prefix.count))) else {
                return observer.didFinishEnumeratingChangesWithError(ContactProviderError.changeAnchorExpired)
            }
            if since > Date() {
                // Nothing in the store was modified after an instant still to come.
                return observer.didFinishEnumeratingChanges(upTo: syncAnchor, moreComing: false)
            }
            guard
                let kept = LocalTimeIndex.entries().last(where: {
                    $0.milliseconds <= LocalTimeIndex.milliseconds(since)
                })
            else {
                return observer.didFinishEnumeratingChangesWithError(ContactProviderError.changeAnchorExpired)
            }
            start = ContactItemSyncAnchor(generationMarker: kept.marker, offset: kept.offset)
        }
        await correct.enumerateChanges(startingAt: start, for: LocalTimeAnchorObserver(observer))
    }
}

/// Hands over a local wall-clock time for each anchor of the correct enumerator.
private final class LocalTimeAnchorObserver: ForwardingChangeObserver {
    override func didFinishEnumeratingChanges(upTo syncAnchor: ContactItemSyncAnchor, moreComing: Bool) {
        let milliseconds = LocalTimeIndex.record(syncAnchor)
        let text = LocalTimeIndex.formatter().string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        next.didFinishEnumeratingChanges(
            upTo: ContactItemSyncAnchor(
                generationMarker: Data((LocalTimeAnchorsEnumerator.prefix + text).utf8), offset: 0),
            moreComing: moreComing)
    }
}

/// The instants of the anchors handed over, with the correct anchor of each, oldest first.
enum LocalTimeIndex {
    struct Entry: Codable {
        var milliseconds: Int64
        var marker: Data
        var offset: Int
    }

    private static let lock = NSLock()
    private static var path: String { AppGroup.current.path + "/local-time-anchors.json" }

    /// Local wall-clock time, to the millisecond, in the device's zone of the moment.
    static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        return formatter
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    static func entries() -> [Entry] {
        lock.withLock {
            (FileManager.default.contents(atPath: path)).flatMap { try? JSONDecoder().decode([Entry].self, from: $0) }
                ?? []
        }
    }

    /// The instant of `anchor`: the one it was first handed over at, else now (after every other).
    static func record(_ anchor: ContactItemSyncAnchor) -> Int64 {
        lock.withLock {
            var all =
                (FileManager.default.contents(atPath: path)).flatMap {
                    try? JSONDecoder().decode([Entry].self, from: $0)
                }
                ?? []
            if let known = all.first(where: { $0.marker == anchor.generationMarker && $0.offset == anchor.offset }) {
                return known.milliseconds
            }
            let now = max(milliseconds(Date()), (all.last?.milliseconds ?? 0) + 1)
            all.append(Entry(milliseconds: now, marker: anchor.generationMarker, offset: anchor.offset))
            try? JSONEncoder().encode(all).write(to: URL(fileURLWithPath: path), options: .atomic)
            return now
        }
    }
}
