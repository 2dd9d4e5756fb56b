import AppGroupStore
import ContactProvider
import ContactProviderConformance
import Dispatch
import ExampleProviders
import Foundation
import Synchronization
import TestSupport
import Testing

/// Issue 16 item 2: the in-process kit gives the provider its App Group without changing the process's
/// choice. Inside the run's tasks a task-local scope answers; outside them (a `DispatchQueue` hop, a
/// `Thread`) the run registered as the process's in-process run does; `AppGroup.chosen` never moves.
@Suite("In-process kit: the provider sees the run's App Group, AppGroup.chosen stays the process's")
struct KitAppGroupScopeTests {
    /// Where a provider finds its App Group container.
    enum Lookup: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// In the enumerator's own task.
        case inTask
        /// From `DispatchQueue.global()`, which has no task-locals.
        case dispatchQueue
        /// From a new `Thread`.
        case thread

        var testDescription: String { rawValue }
    }

    /// What a provider saw when it looked: its container's path and the process's chosen App Group.
    struct Sighting: Sendable {
        let container: String?
        let chosen: AppGroup?
    }

    /// Sightings per lookup (each lookup has its own provider type, so parallel arguments do not mix).
    static let sightings = Mutex<[Lookup: [Sighting]]>([:])

    /// A demo provider made where `lookup` says, on its first call: the container is looked up with
    /// `containerURL(forSecurityApplicationGroupIdentifier:)` there, and the `DemoEnumerator` (whose
    /// `ProviderDataSource()` reads `AppGroup.current`) is made there, so it reads the kit's data only
    /// if that place resolves to the kit's App Group.
    class LookingProvider: ContactProviderExtension {
        class var lookup: Lookup { .inTask }
        private let root: LookingEnumerator

        required init() { root = LookingEnumerator(lookup: Self.lookup) }
        func configure(for domain: any ContactProviderDomain) {}
        func enumerator(for collection: ContactItem.Identifier) -> any ContactItemEnumerator { root }
        func invalidate() async throws { await root.invalidate() }
    }

    final class InTaskProvider: LookingProvider {}
    final class DispatchQueueProvider: LookingProvider { override class var lookup: Lookup { .dispatchQueue } }
    final class ThreadProvider: LookingProvider { override class var lookup: Lookup { .thread } }

    static func provider(_ lookup: Lookup) -> LookingProvider.Type {
        switch lookup {
        case .inTask: InTaskProvider.self
        case .dispatchQueue: DispatchQueueProvider.self
        case .thread: ThreadProvider.self
        }
    }

    final class LookingEnumerator: ContactItemEnumerator {
        let lookup: Lookup
        private var made: DemoEnumerator?

        init(lookup: Lookup) { self.lookup = lookup }

        func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
            await demo().enumerateContent(in: page, for: observer)
        }

        func enumerateChanges(
            startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
        ) async {
            await demo().enumerateChanges(startingAt: syncAnchor, for: observer)
        }

        func invalidate() async {}

        private func demo() async -> DemoEnumerator {
            if let made { return made }
            let found = await Self.look(lookup)
            KitAppGroupScopeTests.sightings.withLock {
                $0[lookup, default: []].append(Sighting(container: found.container, chosen: found.chosen))
            }
            made = found.enumerator
            return found.enumerator
        }

        /// Made on another thread and handed back once; nothing else holds it.
        struct Found: @unchecked Sendable {
            let container: String?
            let chosen: AppGroup?
            let enumerator: DemoEnumerator
        }

        static func look(_ lookup: Lookup) async -> Found {
            @Sendable func make() -> Found {
                Found(
                    container: FileManager.default.containerURL(
                        forSecurityApplicationGroupIdentifier: "group.com.example.contacts")?.path,
                    chosen: AppGroup.chosen, enumerator: DemoEnumerator())
            }
            switch lookup {
            case .inTask:
                return make()
            case .dispatchQueue:
                return await withCheckedContinuation { continuation in
                    DispatchQueue.global().async { continuation.resume(returning: make()) }
                }
            case .thread:
                return await withCheckedContinuation { continuation in
                    Thread.detachNewThread { continuation.resume(returning: make()) }
                }
            }
        }
    }

    @Test(
        "a provider finds the kit's App Group in its task, after a DispatchQueue hop and on a Thread, and passes",
        arguments: Lookup.allCases)
    func providerFindsTheRunsAppGroup(lookup: Lookup) async throws {
        let chosenBefore = AppGroup.chosen
        Self.sightings.withLock { $0[lookup] = [] }
        let report = try await ConformanceKit.run(
            Self.provider(lookup), options: ConformanceOptions(seed: 7, operations: 40))
        #expect(report.passed, "\(report.text)")
        let seen = Self.sightings.withLock { $0[lookup] ?? [] }
        #expect(!seen.isEmpty, "the provider never enumerated")
        for sighting in seen {
            let container = try #require(sighting.container)
            // The kit's temporary App Group, never the process's choice or the user's default.
            #expect((container as NSString).lastPathComponent.hasPrefix("cps-conformance-"), "\(container)")
            #expect(sighting.chosen == chosenBefore, "AppGroup.chosen changed during the run")
        }
        #expect(AppGroup.chosen == chosenBefore, "AppGroup.chosen changed by the run")
    }

    @Test("withCurrent scopes the App Group to the task and the tasks it creates, and leaves chosen alone")
    func taskScope() async {
        let chosenBefore = AppGroup.chosen
        await withTemporaryAppGroup { group in
            let seen = await AppGroup.withCurrent(group.appGroup) {
                let child = await Task { AppGroup.current }.value
                let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.x")
                return (current: AppGroup.current, child: child, container: container?.path, chosen: AppGroup.chosen)
            }
            #expect(seen.current == group.appGroup)
            #expect(seen.child == group.appGroup)
            #expect(seen.container == group.path)
            #expect(seen.chosen == chosenBefore)
            // Outside the scope (whatever else this process runs meanwhile), not this group.
            #expect(AppGroup.current != group.appGroup)
            #expect(AppGroup.withCurrent(group.appGroup) { AppGroup.currentWithSource.source } == .flag)
        }
        #expect(AppGroup.chosen == chosenBefore)
    }
}
