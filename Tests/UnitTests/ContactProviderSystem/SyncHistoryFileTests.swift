import AppGroupStore
import ContactProviderSystem
import ContactProviderTesting
import Foundation
import TestSupport
import Testing

/// The domain's sync history (`sync-history.jsonl`, issue 45): bounded, durable appends, a torn line
/// after a crash is a warning, and the engine records each sync's pages and batches.
@Suite("Sync history: bounded append-only file, torn lines, what the engine records")
struct SyncHistoryFileTests {
    private func entry(_ index: Int) -> SyncHistoryEntry {
        var entry = SyncHistoryEntry(kind: .sync, time: Double(index))
        entry.enumeration = "changes"
        entry.updated = index
        entry.add(.init(kind: "batch", updated: index, deleted: 0, position: "(m, \(index))", milliseconds: 1))
        return entry
    }

    private func file(_ group: TemporaryAppGroup, keep: Int) -> SyncHistoryFile {
        SyncHistoryFile(path: group.path + "/history.jsonl", lockPath: group.path + "/history.lock", keep: keep)
    }

    private func lineCount(_ path: String) throws -> Int {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count
    }

    @Test("the file never holds more than 2 × keep lines, and a trim keeps the newest keep, in order")
    func boundedTrimming() throws {
        try withTemporaryAppGroup { group in
            let history = file(group, keep: 3)
            var most = 0
            for index in 1...20 {
                try history.append(entry(index))
                most = max(most, try lineCount(history.path))
            }
            #expect(most == 6, "the file peaked at \(most) lines")
            let entries = try SyncHistoryFile.read(history.path).entries
            #expect(entries.map(\.time) == entries.map(\.time).sorted())
            #expect(entries.last?.time == 20)
            #expect(entries.count >= 3 && entries.count <= 6)
            // A second writer (another process: the host's reset marker) is counted, not overwritten.
            let other = file(group, keep: 3)
            try other.append(SyncHistoryEntry(kind: .reset, time: 21))
            try history.append(entry(22))
            let after = try SyncHistoryFile.read(history.path).entries
            #expect(after.suffix(2).map(\.kind) == [.reset, .sync], "\(after.map(\.kind))")
            #expect(try lineCount(history.path) <= 6)
        }
    }

    @Test("an append is on disk when it returns: a fresh reader sees every field")
    func durableAppend() throws {
        try withTemporaryAppGroup { group in
            let history = file(group, keep: 10)
            var failed = SyncHistoryEntry(kind: .sync, time: 5)
            failed.error = .init(code: "itemsLimitReached", rule: nil, message: "too many")
            failed.restarted = true
            try history.append(failed)
            try history.append(SyncHistoryEntry(kind: .disable, time: 6))
            let read = try SyncHistoryFile.read(history.path)
            #expect(read.entries == [failed, SyncHistoryEntry(kind: .disable, time: 6)])
            #expect(read.warnings.isEmpty)
            #expect(try SyncHistoryFile.read(group.path + "/absent.jsonl").entries.isEmpty)
        }
    }

    @Test("a torn last line (a crash mid-append) is a warning naming file and line; the next append is intact")
    func tornLine() throws {
        try withTemporaryAppGroup { group in
            let history = file(group, keep: 10)
            try history.append(entry(1))
            let handle = try #require(FileHandle(forWritingAtPath: history.path))
            handle.seekToEndOfFile()
            handle.write(Data(#"{"kind":"sync","time":2,"ste"#.utf8))
            handle.closeFile()
            let torn = try SyncHistoryFile.read(history.path)
            #expect(torn.entries == [entry(1)])
            #expect(torn.warnings == ["\(history.path):2: a torn line (an append cut short by a crash) was ignored"])
            // A fresh writer (after the crash) starts its line on a line of its own.
            try file(group, keep: 10).append(entry(3))
            let after = try SyncHistoryFile.read(history.path)
            #expect(after.entries == [entry(1), entry(3)])
            #expect(after.warnings.count == 1 && after.warnings[0].contains(":2:"))
        }
    }

    @Test("a whole line that is not an entry is an error naming file and line")
    func damagedLine() throws {
        try withTemporaryAppGroup { group in
            let path = group.path + "/history.jsonl"
            try Data(
                "{\"kind\":\"sync\",\"time\":1}\n{\"kind\":\"party\",\"time\":2}\n{\"kind\":\"reset\",\"time\":3}\n"
                    .utf8
            )
            .write(to: URL(fileURLWithPath: path))
            #expect {
                try SyncHistoryFile.read(path)
            } throws: { error in
                "\(error)".contains(path) && "\(error)".contains("2")
            }
        }
    }

    @Test("the engine records a content sync's pages and a change sync's batches; an expiry and idle syncs as they are")
    func engineRecordsSyncs() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group) { $0.pageSize = 2 }
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            let first = await engine.sync(driver: ScriptedDriver(content: pagingContent(records(1...5))))
            #expect(first.error == nil)
            let idle = await engine.sync(
                driver: ScriptedDriver(
                    content: pagingContent(records(1...5)),
                    changes: { anchor, observer in observer.didFinishBatch(upTo: anchor, moreComing: false) }))
            #expect(idle.error == nil && idle.updated == 0)
            let expiring = ScriptedDriver(
                content: pagingContent(records(7...8)),
                changes: { _, observer in observer.didFinishWithError(code: .changeAnchorExpired, description: "gone") }
            )
            let restarted = await engine.sync(driver: expiring)
            #expect(restarted.restarted)
            let entries = try SyncHistoryFile.read(paths.syncHistory).entries
            #expect(entries.count == 2, "the idle sync is not recorded: \(entries)")
            #expect(entries[0].enumeration == "content")
            #expect(entries[0].steps.map(\.kind) == ["page", "page", "page"])
            #expect(entries[0].steps.map(\.updated) == [2, 2, 1])
            #expect(entries[0].updated == 5 && entries[0].systemCount == 5)
            #expect(entries[0].steps.allSatisfy { $0.position != nil && $0.milliseconds >= 0 })
            #expect(entries[0].callLimitMs == 10_000)
            #expect(entries[1].restarted == true)
            #expect(entries[1].steps.first?.expired == "changeAnchorExpired")
            #expect(entries[1].steps.dropFirst().reduce(0) { $0 + $1.updated } == 2)
        }
    }

    @Test("reset and disable leave a marker line after the syncs, in order")
    func resetAndDisableMarkers() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group)
            let client = try SystemClient(appGroup: group.appGroup, domain: "defaultDomain")
            #expect(await engine.sync(driver: ScriptedDriver(content: pagingContent(records(1...2)))).error == nil)
            try client.reset()
            try client.reset(marker: .disable)
            let entries = try SyncHistoryFile.read(client.paths.syncHistory).entries
            #expect(entries.map(\.kind) == [.sync, .reset, .disable])
            #expect(entries.map(\.time) == entries.map(\.time).sorted())
        }
    }
}
