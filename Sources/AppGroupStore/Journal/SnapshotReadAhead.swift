import Dispatch
import Foundation

/// The snapshot lines that follow a content page, decoded on another thread while the provider hands
/// the page on and the system commits it.
///
/// A content enumeration asks for the page after the one it was given (R22): ``ContentPager`` starts
/// one of these for it as it returns a page, and the next call takes the records instead of decoding
/// them. Decoding a page was a fifth of a full sync's time on the one thread that runs the provider
/// and the system in turn (`perf`, 1,000,000 contacts); read ahead, it runs beside them.
///
/// What is taken is what the pager would have decoded: the same lines of the same file. A snapshot
/// is never rewritten in place, only replaced by another file (a compaction, a reset), so the same
/// inode means the same bytes, and the mapping held here keeps the inode from being reused. A page
/// asked for elsewhere (another offset, another file) does not match, and its read-ahead is dropped:
/// the cost of a wrong guess is one page decoded for nothing.
///
/// A line that does not decode ends the read-ahead there: the pager decodes it again itself, so the
/// error it reports names the file and line as before.
final class SnapshotReadAhead: @unchecked Sendable {
    /// The snapshot read (held: its inode stays this file's while the lines are in use).
    private let file: MappedFile
    /// The first line's index (0-based, after the header) and the offset where it starts.
    private let firstLine: Int
    private let startByte: Int

    private let done = DispatchSemaphore(value: 0)
    // Written by the decoding thread before `done` is signalled, read only after waiting for it.
    private var records: [ContactRecord] = []
    private var lineEnds: [Int] = []

    /// Starts decoding up to `lines` lines of `file` from line `firstLine`, which starts at `startByte`.
    init(file: MappedFile, firstLine: Int, startByte: Int, lines: Int) {
        self.file = file
        self.firstLine = firstLine
        self.startByte = startByte
        records.reserveCapacity(lines)
        lineEnds.reserveCapacity(lines)
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            decode(lines: lines)
            done.signal()
        }
    }

    private func decode(lines: Int) {
        let decoder = JSONDecoder()
        var byte = startByte
        for _ in 0..<lines {
            guard let end = file.newline(from: byte),
                let record = try? JournaledStore<NoMetadata>.decodeWholeRecord(
                    decoder, file, byte..<end, keepingBytes: true)
            else { return }
            records.append(record)
            lineEnds.append(end)
            byte = end + 1
        }
    }

    /// Whether these are the lines from line `line` (starting at `byte`) of `snapshot`.
    func matches(_ snapshot: MappedFile, line: Int, byte: Int) -> Bool {
        snapshot.inode == file.inode && snapshot.size == file.size && line == firstLine && byte == startByte
    }

    /// Waits for the decoding to end; returns the records decoded, in line order, each with the
    /// offset of the newline that ends its line. Called once (the decoding thread holds this object
    /// until it is done, so one that is dropped untaken finishes its page and goes).
    func take() -> (records: [ContactRecord], lineEnds: [Int]) {
        done.wait()
        defer {
            records = []
            lineEnds = []
        }
        return (records, lineEnds)
    }
}
