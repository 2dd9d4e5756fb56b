import Foundation
import Glibc
import Synchronization

/// Wakes when the device's contacts change in any process: the device's own store
/// (`<App Group>/device/contacts`) or a domain's system store (`domains/<d>/store`, which a provider
/// sync commits to) is written, replaced or removed.
///
/// One thread per App Group sleeps in `read(2)` on an inotify descriptor (no polling): the stores'
/// files are the signal, so writers need not know who watches. Only the journal and snapshot count
/// (a reader's lock file does not), and the events of one wake-up are reported once. Directories that
/// appear later (the first save, a newly enabled domain) are watched as they appear; the thread ends
/// when the App Group directory is removed.
package enum DeviceChangeWatcher {
    private static let started = Mutex<Set<String>>([])

    /// Starts watching `appGroup` (once per App Group and process) and calls `onChange` on the
    /// watcher's thread after each batch of changes. The watches are in place when this returns, so
    /// a change made after it is reported.
    ///
    /// - Returns: false when the App Group directory does not exist yet or inotify is refused (the
    ///   next call tries again).
    @discardableResult
    package static func start(appGroup: AppGroup, onChange: @escaping @Sendable () -> Void) -> Bool {
        let path = appGroup.path
        guard started.withLock({ !$0.contains(path) }) else { return true }
        let events = inotify_init1(Int32(IN_CLOEXEC))
        guard events >= 0 else { return false }
        let watches = Watches(events: events, root: path)
        guard watches.rescan() != nil else {
            close(events)
            return false
        }
        let first = started.withLock { $0.insert(path).inserted }
        guard first else {
            close(events)
            return true
        }
        let thread = Thread {
            watches.run(onChange: onChange)
            close(events)
            _ = started.withLock { $0.remove(path) }
        }
        thread.name = "CNContactStore change watcher"
        thread.start()
        return true
    }

    /// The inotify watches of one App Group, by watch descriptor.
    private final class Watches: @unchecked Sendable {
        enum Kind {
            /// A directory that may gain one to watch: the App Group, `device`, `domains`, a domain.
            case parent
            /// A store directory: its journal and snapshot are the device's contacts.
            case store
        }

        let events: Int32
        let root: String
        private var kinds: [Int32: Kind] = [:]
        private var rootWatch: Int32 = -1

        init(events: Int32, root: String) {
            self.events = events
            self.root = root
        }

        private static let parentMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR)
        private static let storeMask = UInt32(IN_MODIFY | IN_MOVED_TO | IN_DELETE | IN_DELETE_SELF | IN_ONLYDIR)

        /// Watches every directory that exists now; nil when the App Group itself is missing, else
        /// whether a store directory was newly watched (its first writes may predate the watch).
        func rescan() -> Bool? {
            rootWatch = inotify_add_watch(events, root, Self.parentMask | UInt32(IN_DELETE_SELF))
            guard rootWatch >= 0 else { return nil }
            kinds[rootWatch] = .parent
            var added = false
            func watch(_ path: String, _ kind: Kind) -> Bool {
                let descriptor = inotify_add_watch(events, path, kind == .store ? Self.storeMask : Self.parentMask)
                guard descriptor >= 0 else { return false }
                if kinds.updateValue(kind, forKey: descriptor) == nil, kind == .store { added = true }
                return true
            }
            if watch(root + "/device", .parent) { _ = watch(root + "/device/contacts", .store) }
            if watch(root + "/domains", .parent) {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/domains")) ?? []
                for name in names where watch(root + "/domains/" + name, .parent) {
                    _ = watch(root + "/domains/" + name + "/store", .store)
                }
            }
            return added
        }

        /// Reads events until the App Group is removed, calling `onChange` once per batch that
        /// touched a store.
        func run(onChange: @Sendable () -> Void) {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(events, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                var changed = false
                var rescanNeeded = false
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let (descriptor, mask, nameLength, name) = buffer.withUnsafeBytes { raw in
                        let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        let start = offset + MemoryLayout<inotify_event>.size
                        let bytes = raw[start..<start + Int(event.len)].prefix { $0 != 0 }
                        return (event.wd, event.mask, Int(event.len), String(decoding: bytes, as: UTF8.self))
                    }
                    offset += MemoryLayout<inotify_event>.size + nameLength
                    if descriptor == rootWatch, mask & UInt32(IN_DELETE_SELF) != 0 { return }
                    if mask & UInt32(IN_IGNORED) != 0 {
                        kinds[descriptor] = nil
                        continue
                    }
                    switch kinds[descriptor] {
                    case .store:
                        if mask & UInt32(IN_DELETE_SELF) != 0 || name == "journal.jsonl" || name == "snapshot.jsonl" {
                            changed = true
                        }
                    case .parent: rescanNeeded = true
                    case nil: break
                    }
                }
                if rescanNeeded {
                    guard let added = rescan() else { return }
                    if added { changed = true }
                }
                if changed { onChange() }
            }
        }
    }
}
