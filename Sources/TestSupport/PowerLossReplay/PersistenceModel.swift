import Foundation

/// What survives a cut (a power loss, a kernel panic) at some point of a command's file-system
/// operations: six models, from what `kill -9` leaves to the least POSIX promises.
///
/// `kill -9` keeps the page cache, so a crash test that kills the process only ever sees
/// ``processKill``. The others are what a power cut can leave; each is a rule the ``CrashReplayer``
/// applies to the recorded operations.
package enum PersistenceModel: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Everything issued so far is on disk (what a killed process leaves: the kernel still has it).
    case processKill = "process kill"
    /// Everything before the last operation, and only a prefix of the last write (a sector or a page
    /// reached the disk, the rest did not): prefixes of 1 byte, half, and all but one byte.
    case tornWrite = "torn last write"
    /// Only what a barrier forced, as Linux's journaling file systems commit it: an `fsync` or
    /// `fdatasync` makes that file's data and size durable and commits the journal, so every
    /// create, rename, unlink and mkdir issued before it is durable too; nothing after the last
    /// barrier is, and no other file's unsynced data is.
    case barrierOnly = "barrier only"
    /// ext4 `data=ordered` with delayed allocation: metadata (creates, renames, unlinks, mkdirs) is
    /// journaled in order and the crash came just after a journal commit of all of it, while the
    /// data of every write not followed by an `fsync` of its file had no blocks yet: such a file
    /// reads back as it was at its last `fsync` (a file renamed into place without one is empty).
    /// This is conservative: ext4's `auto_da_alloc` (flushing a file renamed over another) is not
    /// credited, since it is a heuristic that can be turned off (`noauto_da_alloc`).
    case ext4Ordered = "ext4 data=ordered with delayed allocation"
    /// The POSIX minimum: a directory's entries (new files, subdirectories, renames, unlinks) are
    /// durable only as of that directory's last `fsync` (the App Group's own entry only after its
    /// parent's), a file's data only as of that file's last `fsync`/`fdatasync`.
    case posixMinimum = "POSIX minimum"
    /// Writeback holes: every name and size is as issued, but the regions written since their
    /// file's last `fsync` read as zeros: either all of them, or one page in the middle of each
    /// (the pages around it were written back, that one was not).
    case writebackHoles = "writeback holes"

    /// The model's name.
    package var description: String { rawValue }

    /// Whether a cut after the command's last operation must show the command's own change: true
    /// for every model except ``tornWrite`` (whose cut is inside the last write). An acknowledged
    /// command made its change durable before exiting 0, so no model may take it back then.
    package var requiresCommandResultAtEnd: Bool { self != .tornWrite }
}
