import AppGroupStore
import ContactProviderSystem
import ContactProviderTesting
import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

/// A journal `fdatasync` stand-in that logs what it saw, can hold its first call back until the
/// provider is asked for a given page, and can fail every call after the first.
private final class SyncRecorder: Sendable {
    let log = Mutex<[String]>([])
    let calls = Mutex(0)
    let inFlight = Mutex(false)
    /// The page (its offset) whose request lets the first call go on.
    let releaseFirstAt: Int
    let failAfterFirst: Bool
    private let released = DispatchSemaphore(value: 0)

    init(releaseFirstAt: Int, failAfterFirst: Bool = false) {
        self.releaseFirstAt = releaseFirstAt
        self.failAfterFirst = failAfterFirst
    }

    func append(_ line: String) { log.withLock { $0.append(line) } }

    /// The driver's content, logging each page asked for.
    func content(over all: [ContactRecord]) -> ScriptedDriver.Content {
        let good = pagingContent(all)
        return { [self] page, observer in
            append("page at offset \(page.offset)")
            if page.offset == releaseFirstAt { released.signal() }
            await good(page, observer)
        }
    }

    var function: PendingSync.SyncFunction {
        { [self] fd in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            if inFlight.withLock({ $0 }) { append("sync \(call) started while the one before was still running") }
            inFlight.withLock { $0 = true }
            defer { inFlight.withLock { $0 = false } }
            let covered = Self.size(fd)
            append("sync \(call) start, journal \(covered) bytes")
            if call == 1, released.wait(timeout: .now() + 30) == .timedOut {
                append("sync 1 was not overlapped with the page at offset \(releaseFirstAt)")
            }
            if call > 1, failAfterFirst {
                append("sync \(call) failed")
                errno = EIO
                return -1
            }
            let result = fdatasync(fd)
            append("sync \(call) done, journal \(Self.size(fd)) bytes, \(covered) durable")
            return result
        }
    }

    /// The bytes the log's finished syncs made durable, in log order up to `index`.
    func durableBytes(before index: Int, in log: [String]) -> Int {
        log[..<index].compactMap { line -> Int? in
            guard line.contains(" done, ") else { return nil }
            return Int(line.split(separator: " ").dropLast(1).last ?? "")
        }.max() ?? 0
    }

    static func size(_ fd: Int32) -> Int {
        var info = stat()
        return fstat(fd, &info) == 0 ? Int(info.st_size) : -1
    }
}

/// Where each entry of the system store's journal ends, by seq.
private func journalEntryEnds(_ group: TemporaryAppGroup) throws -> [Int: Int] {
    let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: SystemStore(directory: paths.systemStore).journalPath))
    var ends: [Int: Int] = [:]
    var start = 0
    for (index, byte) in bytes.enumerated() where byte == 0x0A {
        let line = bytes[start..<index]
        if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any], let seq = object["seq"] as? Int
        {
            ends[seq] = index + 1
        }
        start = index + 1
    }
    return ends
}

@Suite("System engine: a page's fdatasync overlaps the next pages, and pages share one (group commit)")
struct OverlappedCommitTests {
    @Test(
        "pages written while a page's fdatasync runs are not waited for; one runs at a time; each page is announced once durable, in order (R24)"
    )
    func overlapsAndShares() async throws {
        try await withTemporaryAppGroup { group in
            let recorder = SyncRecorder(releaseFirstAt: 4)
            let engine = try makeEngine(group, configure: { $0.pageSize = 2 }) { event in
                if case .committed(let seq, _) = event { recorder.append("event seq \(seq)") }
            }
            engine.journalSync = recorder.function
            let all = records(1...7)
            let report = await engine.sync(driver: ScriptedDriver(content: recorder.content(over: all)))
            #expect(report.error == nil)
            #expect(report.systemCount == 7)
            #expect(try systemContacts(group).count == 7)
            let log = recorder.log.withLock { $0 }
            // The first sync ran until the provider was asked for the third page, which it is only once the
            // second is committed: the second page was written without waiting for it (the first sync
            // would have timed out, logging "not overlapped", otherwise).
            let problems = log.filter { $0.contains("not overlapped") || $0.contains("while") }
            #expect(problems.isEmpty, "\(log)")
            let thirdPage = log.firstIndex(of: "page at offset 4")
            let firstDone = log.firstIndex { $0.hasPrefix("sync 1 done") }
            #expect(thirdPage != nil && firstDone != nil && thirdPage! < firstDone!, "\(log)")
            // Four pages, four events, in order; each only after a finished sync covered its entry.
            let ends = try journalEntryEnds(group)
            let events = log.enumerated().compactMap { index, line -> (index: Int, seq: Int)? in
                line.hasPrefix("event seq ") ? (index, Int(line.dropFirst("event seq ".count))!) : nil
            }
            #expect(events.count == 4, "\(log)")
            #expect(zip(events, events.dropFirst()).allSatisfy { $1.seq == $0.seq + 1 }, "\(log)")
            for event in events {
                let end = try #require(ends[event.seq])
                #expect(
                    recorder.durableBytes(before: event.index, in: log) >= end,
                    "seq \(event.seq) (ending at \(end)) announced before it was durable: \(log)")
            }
            #expect(recorder.calls.withLock { $0 } <= 3, "more fdatasyncs than pages after the first: \(log)")
        }
    }

    @Test("at the unsynced limit the next page is written only once the pages before it are durable")
    func waitsAtTheLimit() async throws {
        try await withTemporaryAppGroup { group in
            let recorder = SyncRecorder(releaseFirstAt: 2)
            let engine = try makeEngine(group) { $0.pageSize = 2 }
            engine.journalSync = recorder.function
            // Every page passes a limit of one byte: each waits for the one before, as before group commit.
            engine.groupCommit.unsyncedLimit = 1
            let report = await engine.sync(driver: ScriptedDriver(content: recorder.content(over: records(1...5))))
            #expect(report.error == nil)
            #expect(try systemContacts(group).count == 5)
            let log = recorder.log.withLock { $0 }
            #expect(log.filter { $0.contains("not overlapped") || $0.contains("while") }.isEmpty, "\(log)")
            // One sync per page, each started once the one before was done, nothing appended while one ran.
            #expect(recorder.calls.withLock { $0 } == 3, "\(log)")
            for call in 1...3 {
                let start = log.first { $0.hasPrefix("sync \(call) start") }?.split(separator: " ")
                let done = log.first { $0.hasPrefix("sync \(call) done") }?.split(separator: " ")
                #expect(start != nil && done != nil && Int(start![4]) == Int(done![4]), "\(log)")
            }
            let secondPage = log.firstIndex(of: "page at offset 2")
            let firstDone = log.firstIndex { $0.hasPrefix("sync 1 done") }
            let secondStart = log.firstIndex { $0.hasPrefix("sync 2 start") }
            if let secondPage, let firstDone, let secondStart {
                #expect(secondPage < firstDone && firstDone < secondStart, "\(log)")
            } else {
                Issue.record("\(log)")
            }
        }
    }

    @Test(
        "a failed fdatasync takes back every page not yet durable, not only the newest; the sync fails naming the journal, the next one converges"
    )
    func failedSyncTakesBackEveryUnsyncedPage() async throws {
        try await withTemporaryAppGroup { group in
            let recorder = SyncRecorder(releaseFirstAt: 4, failAfterFirst: true)
            let announced = Mutex<[Int]>([])
            let engine = try makeEngine(group, configure: { $0.pageSize = 2 }) { event in
                if case .committed(let seq, _) = event { announced.withLock { $0.append(seq) } }
            }
            engine.journalSync = recorder.function
            let all = records(1...9)
            let driver = ScriptedDriver(content: recorder.content(over: all))
            let failed = await engine.sync(driver: driver)
            let log = recorder.log.withLock { $0 }
            #expect(failed.error?.message.contains("fdatasync") == true, "\(String(describing: failed.error)) \(log)")
            #expect(failed.error?.message.contains("journal.jsonl") == true)
            #expect(failed.error?.message.contains("Input/output error") == true)
            // The first sync made page 1 durable; page 2 was written while it ran, so the failed sync
            // covered at least pages 2 and 3. All of them went, and only page 1 was announced.
            #expect(log.contains { $0.hasSuffix("failed") }, "\(log)")
            #expect(try systemContacts(group).keys.sorted() == ["c1", "c2"], "\(log)")
            #expect(announced.withLock { $0 }.count == 1)
            #expect(engine.systemState.count == 2)

            engine.journalSync = PendingSync.fdatasync
            let retried = await engine.sync(driver: ScriptedDriver(content: pagingContent(all)))
            #expect(retried.error == nil)
            #expect(retried.systemCount == 9)
            #expect(try systemContacts(group).keys.sorted() == all.map(\.identifier).sorted())
        }
    }

    @Test(
        "a failed overlapped fdatasync ends the sync with a storage error naming the journal, takes the page back; the next sync converges"
    )
    func failedSyncIsReported() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group) { $0.pageSize = 2 }
            engine.journalSync = { _ in
                errno = EIO
                return -1
            }
            let all = records(1...5)
            let driver = ScriptedDriver(content: pagingContent(all))
            let failed = await engine.sync(driver: driver)
            #expect(
                failed.error != nil && failed.error?.code == nil && failed.error?.rule == nil,
                "\(String(describing: failed.error))")
            #expect(failed.error?.message.contains("fdatasync") == true)
            #expect(failed.error?.message.contains("journal.jsonl") == true)
            #expect(failed.error?.message.contains("Input/output error") == true)
            // Nothing that is not durable is readable (issue 42, item 2).
            #expect(try systemContacts(group).isEmpty)

            engine.journalSync = PendingSync.fdatasync
            let retried = await engine.sync(driver: driver)
            #expect(retried.error == nil)
            #expect(retried.systemCount == 5)
            #expect(try systemContacts(group).keys.sorted() == all.map(\.identifier).sorted())
        }
    }
}
