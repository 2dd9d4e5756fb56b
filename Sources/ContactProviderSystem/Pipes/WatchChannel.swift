import AppGroupStore
import Foundation
import Glibc

/// A doorbell to `contacts-host watch`: something was committed to the system store.
///
/// ```json
/// {"v":1,"kind":"commit","seq":12,"generation":"6F9…"}
/// {"v":1,"kind":"reset","generation":"A17…"}
/// ```
///
/// It names the journal entry; the watcher reads what changed from the system store itself, so
/// a page of any size fits in one small atomic message.
package struct WatchEvent: Codable, Equatable, Sendable {
    package enum Kind: String, Codable, Sendable {
        /// A page or batch was committed as journal entry `seq`.
        case commit
        /// The system store was emptied (reset, disable, or expiry).
        case reset
    }

    package var v: Int = Doorbell.version
    package var kind: Kind
    package var seq: Int?
    package var generation: String

    package init(kind: Kind, seq: Int?, generation: String) {
        self.kind = kind
        self.seq = seq
        self.generation = generation
    }

    /// The doorbell for what the engine did.
    package init(_ event: SyncEngine.Event) {
        switch event {
        case .committed(let seq, let generation): self.init(kind: .commit, seq: seq, generation: generation)
        case .reset(let generation): self.init(kind: .reset, seq: nil, generation: generation)
        }
    }
}

/// Fans `WatchEvent`s out to every watcher FIFO in `run/<domain>/watchers/`.
package enum WatchChannel {
    /// Rings every watcher's doorbell; a watcher that is gone (no reader) has its FIFO removed.
    package static func notify(_ paths: DomainPaths, _ event: WatchEvent) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: paths.watchersDirectory), !names.isEmpty,
            var line = try? JSONEncoder().encode(event)
        else { return }
        line.append(UInt8(ascii: "\n"))
        for name in names where name.hasSuffix(".fifo") {
            let path = paths.watchersDirectory + "/" + name
            switch try? NamedPipe.openForWriting(path) {
            case .opened(let fd):
                // A full pipe means a stalled watcher: it misses this doorbell, never blocks the system.
                try? NamedPipe.writeLine(fd, line, path: path)
                close(fd)
            case .noReader:
                unlink(path)
            case nil:
                break
            }
        }
    }

    /// What a `SyncEngine` is given as its `onEvent`: every commit and reset rings the watchers.
    package static func notifier(for paths: DomainPaths) -> (SyncEngine.Event) -> Void {
        { event in notify(paths, WatchEvent(event)) }
    }

    /// Creates this watcher's FIFO and opens it for reading (holding a writer too, so no EOF spin).
    package static func open(_ paths: DomainPaths) throws -> (path: String, fd: Int32) {
        try paths.ensureDirectories()
        let path = paths.watchersDirectory + "/" + UniqueIdentifier.make() + ".fifo"
        // Named only once held: `notify` removes a watcher FIFO nobody reads (`HeldPipe`).
        let fd = try HeldPipe.createHeld(at: path, readWrite: true)
        // Reads block: the watcher sleeps in read(2) until a doorbell arrives (no polling).
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
        return (path, fd)
    }
}
