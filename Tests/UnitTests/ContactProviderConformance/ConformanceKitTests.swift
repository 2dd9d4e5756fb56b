import AppGroupStore
import ContactProvider
import ContactProviderConformance
import ExampleProviders
import Foundation
import KnownBadProviders
import Synchronization
import Testing

/// The kit called from `swift test`, exactly as a provider author would.
@Suite("Conformance kit, in process", .serialized)
struct ConformanceKitTests {
    final class GoodProvider: ExampleProvider {}
    // The known-bad providers: the demo enumerator wrapped by one flaw each (Examples/KnownBadProviders).
    final class ChangingMarker: KnownBadProvider {
        override class func flawed(_ correct: DemoEnumerator) -> any ContactItemEnumerator {
            ChangingMarkerEnumerator(wrapping: correct)
        }
    }
    final class StuckMoreComing: KnownBadProvider {
        override class func flawed(_ correct: DemoEnumerator) -> any ContactItemEnumerator {
            StuckMoreComingEnumerator(wrapping: correct)
        }
    }
    final class LateSnapshot: KnownBadProvider {
        override class func flawed(_ correct: DemoEnumerator) -> any ContactItemEnumerator {
            MarkerAfterSnapshotEnumerator(wrapping: correct)
        }
    }
    final class LateCalls: KnownBadProvider {
        override class func flawed(_ correct: DemoEnumerator) -> any ContactItemEnumerator {
            CallsAfterReturnEnumerator(wrapping: correct)
        }
    }

    @Test("the good example provider passes every rule, and the call returns the report")
    func goodProviderPasses() async throws {
        let report = try await checkContactProvider(
            GoodProvider.self, options: ConformanceOptions(seed: 7, operations: 150))
        #expect(report.passed)
        #expect(report.results.count == ConformanceRule.all.count)
        // T1 included: the App Group database's backend makes its journal unreadable for a moment
        // (issue 43, class 5). The size rules run only when told the app's size (SizeRulesTests).
        let notChecked = ConformanceRule.sizeRules
        #expect(report.results.allSatisfy { $0.status == .pass || notChecked.contains($0.rule) }, "\(report.text)")
        #expect(report.results.filter { notChecked.contains($0.rule) }.allSatisfy { $0.status == .skipped })
        #expect(
            report.results.filter { ConformanceRule.sizeRules.contains($0.rule) }.allSatisfy { $0.explanation == nil })
    }

    /// The rule each flawed provider breaks.
    static func provider(breaking rule: String) -> any ContactProviderExtension.Type {
        switch rule {
        case "C2": return ChangingMarker.self
        case "D4": return StuckMoreComing.self
        case "D3": return LateSnapshot.self
        default: return LateCalls.self
        }
    }

    @Test("each known-bad provider is caught by the rule it breaks", arguments: ["C2", "D4", "D3", "C1"])
    func knownBadProviders(rule: String) async throws {
        let provider = Self.provider(breaking: rule)
        let report = try await ConformanceKit.run(provider, options: ConformanceOptions(seed: 7, operations: 60))
        #expect(!report.passed)
        let result = try #require(report.results.first { $0.rule.id == rule })
        #expect(result.status == .fail, "\(report.text)")
        #expect(result.explanation?.isEmpty == false)
        #expect(result.reproduce?.contains("rules: [.\(rule.lowercased())]") == true)
    }

    @Test("checkContactProvider throws ConformanceFailure whose description names the broken rule")
    func throwsWithReport() async throws {
        do {
            try await checkContactProvider(
                StuckMoreComing.self, options: ConformanceOptions(seed: 3, operations: 20, rules: [.d4]))
            Issue.record("expected a ConformanceFailure")
        } catch let failure as ConformanceFailure {
            #expect(failure.description.contains("FAIL D4"))
            #expect(failure.description.contains("moreComing"))
            #expect(failure.report.results.filter { $0.status == .skipped }.count == ConformanceRule.all.count - 1)
        }
    }

    /// A provider with its own backend: an in-memory store the kit edits through the protocol.
    final class MemoryBackend: ConformanceBackend, @unchecked Sendable {
        static let shared = MemoryBackend()
        private let lock = NSLock()
        private var generation = 0
        private var log: [(seq: Int, id: String, contact: ConformanceContact?)] = []
        private var current: [String: ConformanceContact] = [:]
        private var order: [String] = []

        func reset() throws {
            locked {
                generation += 1
                log = []
                current = [:]
                order = []
            }
        }
        func add(_ contact: ConformanceContact) throws { write(contact.identifier, contact) }
        func update(_ contact: ConformanceContact) throws { write(contact.identifier, contact) }
        func delete(identifier: String) throws { write(identifier, nil) }
        func contacts() throws -> [ConformanceContact] { locked { order.compactMap { current[$0] } } }

        private func write(_ id: String, _ contact: ConformanceContact?) {
            locked {
                if current[id] == nil, contact != nil, !order.contains(id) { order.append(id) }
                current[id] = contact
                log.append((log.count + 1, id, contact))
            }
        }

        /// Positions are stable within a generation (deleted contacts leave holes), so a page at an
        /// offset means the same thing for the whole content enumeration.
        func snapshot() -> (generation: Int, head: Int, positions: [ConformanceContact?]) {
            locked { (generation, log.count, order.map { current[$0] }) }
        }

        func changes(after seq: Int) -> [(seq: Int, id: String, contact: ConformanceContact?)] {
            locked { Array(log.dropFirst(seq)) }
        }

        private func locked<T>(_ body: () -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body()
        }
    }

    /// A provider over `MemoryBackend`, written as an author would (marker "g<generation>:<seq>").
    final class MemoryProvider: ContactProviderExtension {
        required init() {}
        func configure(for domain: any ContactProviderDomain) {}
        func enumerator(for collection: ContactItem.Identifier) -> any ContactItemEnumerator { Enumerator() }
        func invalidate() async throws {}

        final class Enumerator: ContactItemEnumerator {
            func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
                let (generation, head, positions) = MemoryBackend.shared.snapshot()
                var marker = Data("g\(generation):\(head)".utf8)
                if page != .initialPage {
                    guard String(decoding: page.generationMarker, as: UTF8.self).hasPrefix("g\(generation):") else {
                        return observer.didFinishEnumeratingContentWithError(ContactProviderError.pageExpired)
                    }
                    marker = page.generationMarker
                }
                var slice: [ConformanceContact] = []
                var next = page.offset
                while next < positions.count, slice.count < observer.suggestedPageSize {
                    if let contact = positions[next] { slice.append(contact) }
                    next += 1
                }
                observer.didEnumerate(slice.map { $0.makeItem() })
                if !positions[next...].contains(where: { $0 != nil }) {
                    observer.didFinishEnumeratingContent(upTo: marker)
                } else {
                    observer.didFinishEnumeratingPage(upTo: ContactItemPage(generationMarker: marker, offset: next))
                }
            }

            func enumerateChanges(startingAt anchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver)
                async
            {
                let (generation, _, _) = MemoryBackend.shared.snapshot()
                let text = String(decoding: anchor.generationMarker, as: UTF8.self)
                guard text.hasPrefix("g\(generation):"), let base = Int(text.split(separator: ":")[1]) else {
                    return observer.didFinishEnumeratingChangesWithError(ContactProviderError.changeAnchorExpired)
                }
                let pending = MemoryBackend.shared.changes(after: base + anchor.offset)
                let batch = pending.prefix(observer.suggestedBatchSize)
                var final: [String: ConformanceContact?] = [:]
                for change in batch { final[change.id] = .some(change.contact) }
                let updates = final.compactMap { $0.value }.sorted { $0.identifier < $1.identifier }
                let deletes = final.filter { $0.value == nil }.map { ContactItem.Identifier($0.key) }.sorted {
                    $0.value < $1.value
                }
                if !updates.isEmpty { observer.didUpdate(updates.map { $0.makeItem() }) }
                if !deletes.isEmpty { observer.didDelete(deletes) }
                observer.didFinishEnumeratingChanges(
                    upTo: ContactItemSyncAnchor(
                        generationMarker: anchor.generationMarker, offset: anchor.offset + batch.count),
                    moreComing: pending.count > batch.count)
            }

            func invalidate() async {}
        }
    }

    @Test("a provider with its own backend is checked through ConformanceBackend")
    func customBackend() async throws {
        let report = try await checkContactProvider(
            MemoryProvider.self, backend: MemoryBackend.shared, options: ConformanceOptions(seed: 11, operations: 120))
        #expect(report.passed, "\(report.text)")
    }

    @Test("issue 30, item 14: progress names each group of rules as it starts; the reproduce line names the backend")
    func progressAndBackendInReproduce() async throws {
        let messages = Mutex<[String]>([])
        var options = ConformanceOptions(seed: 3, operations: 20, rules: [.c1, .d2])
        options.onProgress = { message in messages.withLock { $0.append(message) } }
        let report = try await ConformanceKit.run(MemoryProvider.self, backend: MemoryBackend.shared, options: options)
        // D2 has two groups: its changes, and the time zone changing between two syncs (issue 43,
        // class 2; in process it only notes that it could not run).
        #expect(
            messages.withLock { $0 } == ["checking C1 (1 of 3)", "checking D2 (2 of 3)", "checking D2 (3 of 3)"])
        #expect(report.passed, "\(report.text)")
        // The provider reads its memory store, the kit writes ContactItems.json: nothing arrives.
        let failing = try await ConformanceKit.run(
            MemoryProvider.self, backendKind: .seedJSON(file: "ContactItems.json"),
            options: ConformanceOptions(seed: 4, operations: 20, rules: [.c4]))
        let c4 = try #require(failing.results.first { $0.rule.id == "C4" })
        #expect(c4.status == .fail, "\(failing.text)")
        #expect(
            c4.reproduce?.contains(
                "ConformanceKit.run(MemoryProvider.self, backendKind: try .parse(\"seed-json:ContactItems.json\"), options:"
            ) == true,
            "\(c4.reproduce ?? "none")")
        // Item 13: content that delivered nothing of the data points at --backend.
        #expect(c4.explanation?.contains("--backend seed-json, exec:COMMAND or carddav:URL") == true, "\(c4)")
    }

    @Test("the same seed gives the same report; V1 shrinks a failing sequence")
    func deterministicAndShrunk() async throws {
        let options = ConformanceOptions(seed: 5, operations: 80, rules: [.v1])
        let first = try await ConformanceKit.run(StuckMoreComing.self, options: options)
        let second = try await ConformanceKit.run(StuckMoreComing.self, options: options)
        let v1 = try #require(first.results.first { $0.rule.id == "V1" })
        #expect(v1.status == .fail)
        // Generation markers are fresh UUIDs; the shrunk sequence and the failing step are reproducible.
        let again = try #require(second.results.first { $0.rule.id == "V1" })
        #expect(v1.step == again.step)
        #expect(
            v1.explanation?.components(separatedBy: "Shrunk").last
                == again.explanation?.components(separatedBy: "Shrunk").last)
        let shrunk = try #require(v1.explanation?.firstMatch(of: /Shrunk from (\d+) to (\d+) operations/))
        #expect(Int(shrunk.2)! < Int(shrunk.1)!)
        #expect(Int(shrunk.2)! <= 8, "\(v1.explanation ?? "")")
    }
}
