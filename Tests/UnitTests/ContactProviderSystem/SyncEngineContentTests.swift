import AppGroupStore
import ContactProviderSystem
import ContactProviderTesting
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("System engine: content enumeration")
struct SyncEngineContentTests {
    @Test(
        "pages until didFinishEnumeratingContent, committing each page; the first anchor is (marker, 0) (R22, R24, R25)"
    )
    func pagesToCompletion() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group) { $0.pageSize = 2 }
            let all = records(1...5)
            let driver = ScriptedDriver(content: pagingContent(all))
            let report = await engine.sync(driver: driver)
            #expect(report.error == nil)
            #expect(report.enumeration == "content")
            #expect(report.pages == 3)
            #expect(report.updated == 5)
            #expect(report.systemCount == 5)
            #expect(report.anchor == SyncPosition(generationMarker: marker, offset: 0))
            #expect(
                driver.calls.withLock { $0 } == [
                    "content (initial, 0)", "content (\"gen-1\", 2)", "content (\"gen-1\", 4)",
                ])
            #expect(try systemContacts(group).count == 5)
            #expect(try engine.pendingOperation() == .changes(from: SyncPosition(generationMarker: marker, offset: 0)))
        }
    }

    @Test("a page that ends in an error commits nothing; the next sync resumes from the last committed page (R24, R28)")
    func resumesFromLastCommittedPage() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group) { $0.pageSize = 2 }
            let all = records(1...5)
            let failSecondPage = Mutex(true)
            let good = pagingContent(all)
            let driver = ScriptedDriver(content: { page, observer in
                if page.offset == 2, failSecondPage.withLock({ $0 }) {
                    observer.didEnumerate(Array(all[2...3]))
                    observer.didFinishWithError(code: .cannotEnumerate, description: "server unreachable")
                    return
                }
                await good(page, observer)
            })
            let first = await engine.sync(driver: driver)
            #expect(first.error?.code == "cannotEnumerate")
            #expect(first.pages == 1)
            #expect(try systemContacts(group).keys.sorted() == ["c1", "c2"])
            #expect(first.nextPage == SyncPosition(generationMarker: marker, offset: 2))

            failSecondPage.withLock { $0 = false }
            let second = await engine.sync(driver: driver)
            #expect(second.error == nil)
            #expect(second.pages == 2)
            #expect(try systemContacts(group).count == 5)
            #expect(driver.calls.withLock { $0 }.filter { $0.hasPrefix("content (initial") }.count == 1)
        }
    }

    @Test("returning without a terminal call is rule R20; nothing is committed")
    func noTerminalCall() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group)
            let driver = ScriptedDriver(content: { _, observer in observer.didEnumerate(records(1...3)) })
            let report = await engine.sync(driver: driver)
            #expect(report.error?.rule == "R20")
            // Issue 40: the message says what iOS does with this code (forum thread 761601) and the fix.
            let message = report.error?.message ?? ""
            #expect(message.contains("on iOS the system then calls enumerateContent again and again"), "\(message)")
            #expect(
                message.contains("forum thread 761601") && message.contains("withCheckedContinuation"), "\(message)")
            #expect(try systemContacts(group).isEmpty)
        }
    }

    @Test("two terminal calls, or didEnumerate after the terminal call, are rule R19")
    func doubleTerminal() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group)
            let twice = ScriptedDriver(content: { _, observer in
                observer.didFinishContent(upTo: marker)
                observer.didFinishContent(upTo: marker)
            })
            #expect(await engine.sync(driver: twice).error?.rule == "R19")
            let late = ScriptedDriver(content: { _, observer in
                observer.didFinishContent(upTo: marker)
                observer.didEnumerate(records(1...1))
            })
            #expect(await engine.sync(driver: late).error?.rule == "R19")
            #expect(try systemContacts(group).isEmpty)
        }
    }

    @Test("an empty generation marker on a page or at the end is rule R23(a)")
    func emptyMarker() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group)
            let emptyPage = ScriptedDriver(content: { _, observer in
                observer.didEnumerate(records(1...1))
                observer.didFinishPage(upTo: SyncPosition(generationMarker: Data(), offset: 1))
            })
            #expect(await engine.sync(driver: emptyPage).error?.rule == "R23")
            let emptyEnd = ScriptedDriver(content: { _, observer in observer.didFinishContent(upTo: Data()) })
            #expect(await engine.sync(driver: emptyEnd).error?.rule == "R23")
            #expect(try systemContacts(group).isEmpty)
        }
    }

    @Test("a marker that changes between pages is rule R23(b); the pages before stay committed")
    func changingMarker() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group) { $0.pageSize = 1 }
            let driver = ScriptedDriver(content: { page, observer in
                observer.didEnumerate(records((page.offset + 1)...(page.offset + 1)))
                observer.didFinishPage(
                    upTo: SyncPosition(generationMarker: Data("gen-\(page.offset)".utf8), offset: page.offset + 1))
            })
            let report = await engine.sync(driver: driver)
            #expect(report.error?.rule == "R23")
            #expect(report.pages == 1)
            #expect(try systemContacts(group).keys.sorted() == ["c1"])
        }
    }

    @Test("a next page equal to the current one is rule R22 (it would never end)")
    func noProgress() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group)
            let driver = ScriptedDriver(content: { page, observer in
                observer.didFinishPage(
                    upTo: page.generationMarker.isEmpty ? SyncPosition(generationMarker: marker, offset: 0) : page)
            })
            let report = await engine.sync(driver: driver)
            #expect(report.error?.rule == "R22")
            #expect(report.pages == 1)
        }
    }

    @Test("pageExpired drops the system store and restarts at the initial page, once (R27)")
    func pageExpiredRestarts() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group) { $0.pageSize = 2 }
            let all = records(1...4)
            let expireOnce = Mutex(true)
            let good = pagingContent(all, marker: Data("gen-2".utf8))
            let driver = ScriptedDriver(content: { page, observer in
                if page.offset == 2,
                    expireOnce.withLock({ value in
                        defer { value = false }
                        return value
                    })
                {
                    observer.didFinishWithError(code: .pageExpired, description: "expired")
                    return
                }
                await good(page, observer)
            })
            let report = await engine.sync(driver: driver)
            #expect(report.error == nil)
            #expect(report.restarted)
            #expect(report.systemCount == 4)
            #expect(driver.calls.withLock { $0 }.filter { $0.hasPrefix("content (initial") }.count == 2)

            let alwaysExpired = ScriptedDriver(content: { _, observer in
                observer.didFinishWithError(code: .pageExpired, description: "expired")
            })
            try engine.dropSystemStore()
            let failing = await engine.sync(driver: alwaysExpired)
            #expect(failing.error?.code == "pageExpired")
            #expect(alwaysExpired.calls.withLock { $0.count } == 2)
        }
    }

    @Test("each committed page is one committed event, an expiry one reset event, in order, for the runtime to pass on")
    func emitsCommitAndResetEvents() async throws {
        try await withTemporaryAppGroup { group in
            let events = Mutex<[SyncEngine.Event]>([])
            let engine = try makeEngine(group, configure: { $0.pageSize = 2 }) { event in
                events.withLock { $0.append(event) }
            }
            let all = records(1...3)
            let expireOnce = Mutex(true)
            let good = pagingContent(all)
            let driver = ScriptedDriver(content: { page, observer in
                if page.offset == 2, expireOnce.withLock({ $0 }) {
                    expireOnce.withLock { $0 = false }
                    observer.didFinishWithError(code: .pageExpired, description: "expired")
                    return
                }
                await good(page, observer)
            })
            let report = await engine.sync(driver: driver)
            #expect(report.error == nil)
            let generation = engine.systemState.generation
            // Page 1, then the expiry's reset (a new generation), then pages 1 and 2 again.
            let seen = events.withLock { $0 }
            #expect(seen.count == 4)
            guard seen.count == 4, case .committed(_, let before) = seen[0], case .reset(let reset) = seen[1],
                case .committed(let firstSeq, let after) = seen[2], case .committed(let lastSeq, _) = seen[3]
            else { return }
            #expect(before != reset)
            #expect(reset == generation && after == generation)
            #expect(lastSeq == firstSeq + 1)
            #expect(seen[3] == .committed(seq: engine.systemState.headSeq, generation: generation))
            #expect(
                WatchEvent(seen[3])
                    == WatchEvent(kind: .commit, seq: engine.systemState.headSeq, generation: generation))
            #expect(WatchEvent(seen[1]) == WatchEvent(kind: .reset, seq: nil, generation: generation))
        }
    }

    @Test("a page above suggestedPageSize is a warning; above the hard cap it fails (R21)")
    func pageSizeLimits() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group) {
                $0.pageSize = 2
                $0.hardCapMultiplier = 3
            }
            let warn = ScriptedDriver(content: { _, observer in
                observer.didEnumerate(records(1...5))
                observer.didFinishContent(upTo: marker)
            })
            let warned = await engine.sync(driver: warn)
            #expect(warned.error == nil)
            #expect(warned.warnings.contains { $0.hasPrefix("R21") })
            try engine.dropSystemStore()
            let fail = ScriptedDriver(content: { _, observer in
                observer.didEnumerate(records(1...7))
                observer.didFinishContent(upTo: marker)
            })
            #expect(await engine.sync(driver: fail).error?.rule == "R21")
        }
    }

    @Test("a page that would exceed the items limit fails with itemsLimitReached (R42)")
    func itemsLimit() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group) { $0.itemsLimit = 3 }
            let driver = ScriptedDriver(content: pagingContent(records(1...4)))
            let report = await engine.sync(driver: driver)
            #expect(report.error?.code == "itemsLimitReached")
            #expect(try systemContacts(group).isEmpty)
        }
    }

    @Test("a disabled domain is never enumerated (R7)")
    func disabledDomain() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group) { $0.enabled = false }
            let driver = ScriptedDriver(content: pagingContent(records(1...2)))
            let report = await engine.sync(driver: driver)
            #expect(report.error?.message.contains("disabled") == true)
            #expect(driver.calls.withLock { $0 }.isEmpty)
        }
    }

    @Test("a page slower than the limit fails with enumerationTimeout, deterministically on a manual clock (R41)")
    func timeout() async throws {
        try await withTemporaryAppGroup { group in
            let clock = ManualClock()
            let engine = try makeEngine(group, clock: clock) { $0.pageTimeoutSeconds = 10 }
            let release = Mutex<CheckedContinuation<Void, Never>?>(nil)
            let driver = ScriptedDriver(content: { _, observer in
                await withCheckedContinuation { continuation in release.withLock { $0 = continuation } }
                observer.didFinishContent(upTo: marker)
            })
            async let report = engine.sync(driver: driver)
            await clock.waitForSleeper()
            clock.advance(by: 9)
            clock.advance(by: 2)
            let result = await report
            #expect(result.error?.code == "enumerationTimeout")
            #expect(try systemContacts(group).isEmpty)
            // Let the abandoned enumeration finish; its late call is ignored and reported next time (R20).
            while release.withLock({ $0 }) == nil { await Task.yield() }
            release.withLock { $0?.resume() }
        }
    }

    @Test("a reset while a page is in flight voids the page with extensionInvalidated (R43)")
    func resetDuringEnumeration() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group)
            let client = try SystemClient(appGroup: group.appGroup, domain: "defaultDomain")
            let driver = ScriptedDriver(content: { _, observer in
                observer.didEnumerate(records(1...2))
                try? client.reset()
                observer.didFinishContent(upTo: marker)
            })
            let report = await engine.sync(driver: driver)
            #expect(report.error?.code == "extensionInvalidated")
            #expect(try systemContacts(group).isEmpty)
        }
    }
}
