import AppGroupStore
import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

/// An `fdatasync` that runs only when the test lets it, logging the journal's size as it starts.
private final class GatedSync: Sendable {
    let permits = DispatchSemaphore(value: 0)
    let starts = Mutex<[Int]>([])

    var function: PendingSync.SyncFunction {
        { [self] fd in
            var info = stat()
            _ = fstat(fd, &info)
            starts.withLock { $0.append(Int(info.st_size)) }
            // Bounded, so a wrong writer fails the test instead of hanging it.
            guard permits.wait(timeout: .now() + 30) == .success else {
                errno = ETIMEDOUT
                return -1
            }
            return fdatasync(fd)
        }
    }
}

/// The store, its state and the group commit, handed to the thread that writes an entry which
/// must wait (the test's thread lets the `fdatasync`s run meanwhile).
private final class Appender: @unchecked Sendable {
    let store: JournaledStore<NoMetadata>
    let commit: JournalGroupCommit
    var state: StoreState<NoMetadata>

    init(directory: String, commit: JournalGroupCommit) throws {
        store = JournaledStore<NoMetadata>(directory: directory)
        self.commit = commit
        try store.reset()  // a generation of its own, as the system store has before a sync
        state = try store.load()
    }

    func append(_ identifier: String, noteBytes: Int) throws {
        var record = ContactRecord(identifier: identifier)
        record.note = String(repeating: "n", count: noteBytes)
        #expect(try store.append(upsert: [record], to: &state, groupCommit: commit, durableNow: false))
    }

    /// Appends on a thread of its own; the semaphore is signalled once the append has returned.
    func appendElsewhere(_ identifier: String, noteBytes: Int) -> DispatchSemaphore {
        let returned = DispatchSemaphore(value: 0)
        Thread {
            do {
                try self.append(identifier, noteBytes: noteBytes)
            } catch {
                Issue.record("appending \(identifier): \(error)")
            }
            returned.signal()
        }.start()
        return returned
    }

    var journalSize: Int {
        var info = stat()
        return stat(store.journalPath, &info) == 0 ? Int(info.st_size) : -1
    }
}

@Suite("Store: a group commit keeps what is not yet durable within the writeback-hole limit")
struct JournalGroupCommitTests {
    @Test(
        "entries within the limit are not waited for; one that would pass it waits until the entries before it are durable; one longer than the limit is written alone"
    )
    func waitsAtTheLimit() throws {
        try withTemporaryAppGroup { group in
            let gate = GatedSync()
            let commit = JournalGroupCommit(unsyncedLimit: 1000, sync: gate.function)
            let appender = try Appender(directory: group.path + "/store", commit: commit)

            // A and B, about 350 bytes each: B is written while A's fdatasync is held.
            try appender.append("a", noteBytes: 300)
            try appender.append("b", noteBytes: 300)
            let afterB = appender.journalSize
            #expect(gate.starts.withLock { $0.count } <= 1, "a second fdatasync started while the first ran")

            // C would take the unsynced bytes past 1000: it waits for A and B to be durable.
            let cReturned = appender.appendElsewhere("c", noteBytes: 500)
            #expect(cReturned.wait(timeout: .now() + 0.2) == .timedOut, "C did not wait for A and B")
            #expect(appender.journalSize == afterB)
            gate.permits.signal()  // A's fdatasync
            gate.permits.signal()  // then one for B, before C is written
            #expect(cReturned.wait(timeout: .now() + 30) == .success)
            let afterC = appender.journalSize
            #expect(afterC > afterB)
            #expect(gate.starts.withLock { $0.count >= 2 && $0[1] == afterB }, "\(gate.starts.withLock { $0 })")

            // D, longer than the limit by itself, waits for C and is then written alone.
            let dReturned = appender.appendElsewhere("d", noteBytes: 1500)
            #expect(dReturned.wait(timeout: .now() + 0.2) == .timedOut, "D did not wait for C")
            #expect(appender.journalSize == afterC)
            gate.permits.signal()  // C's fdatasync
            #expect(dReturned.wait(timeout: .now() + 30) == .success)
            #expect(appender.journalSize - afterC > 1000)

            // Finishing makes D durable; every entry is announced once, in order.
            gate.permits.signal()
            try commit.finish(in: appender.store)
            let durable = commit.takeNewlyDurable()
            let head = appender.state.headSeq
            #expect(durable?.seqs == Array((head - 3)...head))
            #expect(durable?.generation == appender.state.generation)
            #expect(gate.starts.withLock { $0.count } == 4, "\(gate.starts.withLock { $0 })")
        }
    }
}
