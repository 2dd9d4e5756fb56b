import Glibc

/// Journal appends that share `fdatasync`s (group commit) while the writer goes on: the system
/// engine's pages and batches.
///
/// An entry is written under the lock and is readable (and survives the process being killed) at
/// once; its `fdatasync` runs on another thread (a ``PendingSync``) while the provider enumerates the
/// next page. At most one runs at a time. An entry written while one runs is not waited for: the
/// next `fdatasync`, started once the running one has finished, covers every entry written since
/// (it makes the whole file durable). On a quiet machine each page still gets one of its own, since
/// it finishes while the next page is enumerated. On a busy one, the thread that ran it waits for a
/// processor after the disk is done; with one `fdatasync` per page the engine waited for that thread
/// before each page (2.1 s of scheduling delay in a 1,000,000-contact full sync with every processor
/// busy), where pages now share one instead.
///
/// **Bounded by the writeback-hole rule** (``JournalHoles``). If the bytes not yet durable plus the
/// next entry would pass ``unsyncedLimit``, the writer first waits until they are durable (one longer
/// entry is written alone). So a power cut loses at most the limit's worth of whole entries at the
/// journal's end, and readers find any hole where they look for one; the sync resumes after the
/// last entry the journal holds, as after any crash.
///
/// **A failed `fdatasync` takes back everything not durable.** After a failure the kernel may count
/// the pages as clean and drop them at the next power cut. Every entry after the last durable point
/// is therefore cut off, not only the newest: a later entry must not survive one before it. Where
/// entries before the one being written went, the error is ``EarlierEntriesLost``.
///
/// **Whoever reports the entries durable** calls ``finish(in:)`` first (the engine, before its
/// report and before it resets the store), and asks ``takeNewlyDurable()`` which entries became
/// durable, in order, to announce each one.
///
/// Not thread-safe: one writer (the engine's syncing task) uses it.
package final class JournalGroupCommit {
    /// The most bytes of whole entries left not yet durable (``JournalHoles/unsyncedLimit``; tests
    /// lower it to see a writer wait).
    package var unsyncedLimit: Int
    /// The `fdatasync` to run (tests pass one that fails, blocks or logs).
    package var sync: PendingSync.SyncFunction

    /// The `fdatasync` of entries written before the one being written failed, and they were taken
    /// back (the journal was cut back to where it was last durable). The caller's view of the store
    /// is stale, and its report must say the step failed: those entries were written, then lost.
    package struct EarlierEntriesLost: Error {
        /// The failure, naming the journal.
        package let error: any Error
    }

    /// A position in the journal: where an entry ends, and its seq.
    private struct Point: Equatable {
        var end: Int
        var seq: Int
    }

    /// The journal file the points below are in (nil before the first write).
    private var journal: (inode: UInt64, generation: String)?
    private var durable = Point(end: 0, seq: 0)
    private var written = Point(end: 0, seq: 0)
    /// The running `fdatasync`, and the point it makes durable.
    private var running: (sync: PendingSync, covers: Point)?
    /// Entries written and not yet durable, oldest first.
    private var unsyncedSeqs: [Int] = []
    /// Entries made durable since ``takeNewlyDurable()`` was last asked, oldest first.
    private var newlyDurable: (generation: String, seqs: [Int])?

    package init(
        unsyncedLimit: Int = JournalHoles.unsyncedLimit,
        sync: @escaping PendingSync.SyncFunction = PendingSync.fdatasync
    ) {
        self.unsyncedLimit = unsyncedLimit
        self.sync = sync
    }

    /// The entries that became durable since the last call, with their generation, oldest first.
    package func takeNewlyDurable() -> (generation: String, seqs: [Int])? {
        defer { newlyDurable = nil }
        return newlyDurable
    }

    /// Under the exclusive lock, before `writer` writes an entry of `length` bytes: collects a
    /// finished `fdatasync`, and waits for the unsynced bytes to be durable when the entry would take
    /// them past ``unsyncedLimit``.
    func prepare<Meta>(toWrite length: Int, with writer: JournaledStore<Meta>.Writer) throws {
        guard tracks(writer) else { return try follow(writer) }
        try collect(writer, waiting: false, entryStart: nil)
        let unsynced = written.end - durable.end
        if unsynced > 0, unsynced + length > unsyncedLimit {
            try settle(writer, entryStart: nil)
        }
    }

    /// Under the exclusive lock, after `writer` wrote one entry (``prepare(toWrite:with:)`` having
    /// run before it): makes every entry durable before returning (`durableNow`), or starts an
    /// `fdatasync` when none runs.
    ///
    /// - Throws: ``EarlierEntriesLost`` when entries before this one were taken back; a plain error
    ///   when only this one was (the caller may ask for it again).
    func didWrite<Meta>(with writer: JournaledStore<Meta>.Writer, durableNow: Bool) throws {
        // `prepare` left `written` where the journal ended before this entry.
        let entryStart = written.end
        written = Point(end: writer.endOffset, seq: writer.headSeq)
        unsyncedSeqs.append(written.seq)
        if durableNow { return try settle(writer, entryStart: entryStart) }
        try collect(writer, waiting: false, entryStart: entryStart)
        if running == nil {
            running = (try writer.startSync(sync), written)
        }
    }

    /// Makes every entry written durable (outside the lock: it takes it), or takes back what cannot
    /// be made durable and throws ``EarlierEntriesLost``. Does nothing when all is durable already.
    package func finish<Meta>(in store: JournaledStore<Meta>) throws {
        guard let journal, running != nil || written.end > durable.end else { return }
        try store.withLock(.exclusive) {
            let known = JournaledStore<Meta>.Writer.KnownEnd(
                generation: journal.generation, inode: journal.inode, offset: written.end, headSeq: written.seq)
            let writer = try JournaledStore<Meta>.Writer(store: store, known: known)
            defer { writer.close() }
            if tracks(writer) { return try settle(writer, entryStart: nil) }
            // The journal was replaced (a reset): its unsynced entries went with it.
            try follow(writer)
        }
    }

    /// Whether `writer` has the journal this tracks, ending where this last wrote.
    private func tracks<Meta>(_ writer: JournaledStore<Meta>.Writer) -> Bool {
        guard let journal else { return false }
        return journal.generation == writer.generation && written.end == writer.endOffset
            && journal.inode == writer.inode
    }

    /// Starts tracking `writer`'s journal, whose end is durable (every other writer syncs before it
    /// lets go of the lock). A running `fdatasync` of the journal left behind is waited for; if it
    /// failed, that journal's entries cannot be taken back any more (it was replaced, or written
    /// after), so the error is reported.
    private func follow<Meta>(_ writer: JournaledStore<Meta>.Writer) throws {
        let left = running
        running = nil
        unsyncedSeqs.removeAll()
        journal = (writer.inode, writer.generation)
        durable = Point(end: writer.endOffset, seq: writer.headSeq)
        written = durable
        if let left {
            do {
                try left.sync.wait()
            } catch {
                throw EarlierEntriesLost(error: error)
            }
        }
    }

    /// Takes in the running `fdatasync`'s answer, if it has one (or waiting for it).
    private func collect<Meta>(_ writer: JournaledStore<Meta>.Writer, waiting: Bool, entryStart: Int?) throws {
        guard let current = running, waiting || current.sync.hasFinished else { return }
        running = nil
        do {
            try current.sync.wait()
        } catch {
            try cutBack(writer, after: error, entryStart: entryStart)
        }
        becameDurable(current.covers)
    }

    /// Makes every written entry durable: the running `fdatasync`, then one for the entries after it.
    private func settle<Meta>(_ writer: JournaledStore<Meta>.Writer, entryStart: Int?) throws {
        try collect(writer, waiting: true, entryStart: entryStart)
        guard written.end > durable.end else { return }
        do {
            try writer.syncWithoutTakingBack(using: sync)
        } catch {
            try cutBack(writer, after: error, entryStart: entryStart)
        }
        becameDurable(written)
    }

    private func becameDurable(_ point: Point) {
        durable = point
        let count = unsyncedSeqs.prefix { $0 <= point.seq }.count
        guard count > 0, let journal else { return }
        var seqs = newlyDurable?.generation == journal.generation ? newlyDurable!.seqs : []
        seqs.append(contentsOf: unsyncedSeqs.prefix(count))
        newlyDurable = (journal.generation, seqs)
        unsyncedSeqs.removeFirst(count)
    }

    /// Cuts the journal back to where it was last durable and throws `failure`: plainly when that
    /// took back only the entry starting at `entryStart`, as ``EarlierEntriesLost`` otherwise.
    private func cutBack<Meta>(
        _ writer: JournaledStore<Meta>.Writer, after failure: any Error, entryStart: Int?
    ) throws -> Never {
        let onlyThisEntry = entryStart == durable.end
        unsyncedSeqs.removeAll()
        written = durable
        do {
            try writer.takeBack(toEnd: durable.end, head: durable.seq, after: failure)
        } catch {
            if onlyThisEntry { throw error }
            throw EarlierEntriesLost(error: error)
        }
    }
}
