import AppGroupStore
import ContactsInterop
import Foundation

/// Reads the device's contacts history for a `CNChangeHistoryFetchRequest`: every store of the
/// device (its own contacts, each provider domain's system store) from the request's token to now,
/// turned into Apple's events.
///
/// A store's journal is its history: the net change of each contact since the token's seq is an add
/// (the contact did not exist at the token), an update or a delete, and the device's groups then and
/// now give the group events. When a store cannot answer from the token (reset, compacted past it,
/// or gone, as after a disable) the whole fetch starts over: a drop-everything event, then an add for
/// every contact (and group and membership) now, as iOS does.
struct ChangeHistoryReader {
    /// One store of the device as the history reads it.
    struct Store {
        /// Its name in a token (``ChangeHistoryToken/deviceStore`` or a domain's).
        var name: String
        /// The container its contacts are in.
        var container: CNContainer
        /// Its point now; nil when it holds nothing yet.
        var head: () throws -> ChangeHistoryToken.Point?
        /// Everything it holds now, as a history from nothing.
        var everything: () throws -> Changes
        /// Its changes since a point, leaving out those of the excluded authors; nil when it cannot
        /// answer from that point.
        var since: (ChangeHistoryToken.Point, Set<String>) throws -> Changes?
        /// One of its contacts now (for group memberships).
        var lookup: (String) throws -> ContactRecord?
    }

    /// A store's net changes from a point to now.
    struct Changes {
        /// One contact's net change.
        struct Change {
            var identifier: String
            /// The contact now; nil when deleted.
            var record: ContactRecord?
            /// Whether it existed at the point.
            var existedBefore: Bool
        }
        /// The store's point now.
        var point: ChangeHistoryToken.Point
        var changes: [Change]
        /// The groups at the point and now (the device's store only).
        var groupsBefore: [DeviceGroup] = []
        var groupsNow: [DeviceGroup] = []
        /// With excluded authors: the groups after each save that changed them, and whether its
        /// author was excluded (empty otherwise: the groups went from `groupsBefore` to `groupsNow`).
        var groupSteps: [GroupChangeBaseline.Step] = []

        /// The groups as the reader knew them before the changes it is to hear of.
        var groupBaseline: GroupChangeBaseline {
            GroupChangeBaseline(
                before: groupsBefore,
                steps: groupSteps.isEmpty ? [.init(groups: groupsNow, excluded: false)] : groupSteps)
        }
    }

    let appGroup: AppGroup

    /// The device's stores: its own contacts, then each domain whose system store exists, by name.
    func stores() -> [Store] {
        let device = JournaledStore<DeviceMeta>(directory: DeviceContacts(appGroup: appGroup).contactsDirectory)
        var stores = [
            Self.store(
                ChangeHistoryToken.deviceStore, CNContactStore.localContainer, device, groups: { $0?.groups ?? [] })
        ]
        let domains = appGroup.path + "/domains"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: domains)) ?? []
        for name in names.sorted() {
            let directory = domains + "/" + name + "/store"
            guard FileManager.default.fileExists(atPath: JournalFiles.snapshot(in: directory)) else { continue }
            let container = CNContainer(
                identifier: CNContactStore.providerContainerPrefix + name, name: name, type: .unassigned)
            stores.append(
                Self.store(
                    ChangeHistoryToken.domainStore(name), container,
                    JournaledStore<IgnoredStoreState>(directory: directory), groups: { _ in [] }))
        }
        return stores
    }

    private static func store<Meta>(
        _ name: String, _ container: CNContainer, _ journaled: JournaledStore<Meta>,
        groups: @escaping (Meta?) -> [DeviceGroup]
    ) -> Store {
        let exists = { FileManager.default.fileExists(atPath: JournalFiles.snapshot(in: journaled.directory)) }
        return Store(
            name: name, container: container,
            head: {
                guard exists(), let header = try journaled.readSnapshotHeader() else { return nil }
                let window = try journaled.changes(after: header.baseSeq, in: header.generation, limit: 0)
                if case .changes(_, let headSeq, let generation) = window {
                    return .init(generation: generation, seq: headSeq)
                }
                let state = try journaled.load()  // compacted in between: read it whole
                return .init(generation: state.generation, seq: state.headSeq)
            },
            everything: {
                let state = exists() ? try journaled.load() : .empty
                return Changes(
                    point: .init(generation: state.generation, seq: state.headSeq),
                    changes: state.contacts.map { .init(identifier: $0.identifier, record: $0, existedBefore: false) },
                    groupsNow: groups(state.meta))
            },
            since: { point, excludedAuthors in
                guard exists(),
                    let history = try journaled.history(
                        after: point.seq, in: point.generation, excludingAuthors: excludedAuthors)
                else {
                    return nil
                }
                return Changes(
                    point: .init(generation: history.generation, seq: history.headSeq),
                    changes: history.changes.map {
                        .init(identifier: $0.identifier, record: $0.record, existedBefore: $0.existedBefore)
                    },
                    groupsBefore: groups(history.metaBefore), groupsNow: groups(history.metaNow),
                    groupSteps: history.metaSteps.map { .init(groups: groups($0.meta), excluded: $0.excluded) })
            },
            lookup: { exists() ? try journaled.lookup($0) : nil })
    }

    /// The token of every store's point now.
    func currentToken() throws -> ChangeHistoryToken {
        var points: [String: ChangeHistoryToken.Point] = [:]
        for store in stores() {
            if let head = try store.head() { points[store.name] = head }
        }
        return ChangeHistoryToken(stores: points)
    }

    /// The events from `request.startingToken` to now, and the token of now.
    ///
    /// - Throws: `CNError.changeHistoryInvalidAnchor` for a token the device did not issue;
    ///   `CNError.authorizationDenied` without access; `StoreError` when a store cannot be read.
    func read(_ request: CNChangeHistoryFetchRequest, visible: Set<String>?) throws -> (
        events: [CNChangeHistoryEvent], token: ChangeHistoryToken
    ) {
        let stores = stores()
        let reads = try incrementalReads(
            stores, from: request.startingToken.map(ChangeHistoryToken.decode),
            excluding: Set(request.excludedTransactionAuthors ?? []))
        var events: [CNChangeHistoryEvent] = reads == nil ? [CNChangeHistoryDropEverythingEvent()] : []
        let all = try reads ?? stores.map { ($0, try $0.everything()) }
        let classifier = ChangeHistoryClassifier(request: request, visible: visible)
        events += try classifier.events(all)
        var points: [String: ChangeHistoryToken.Point] = [:]
        for (store, changes) in all where !changes.point.generation.isEmpty { points[store.name] = changes.point }
        return (events, ChangeHistoryToken(stores: points))
    }

    /// Each store's changes since `token`, without those of `excludedAuthors`, or nil when the fetch
    /// must drop everything: no token, or a store in it that no longer exists or cannot answer from
    /// its point. A store the token does not name is new since: all it holds is added (but what the
    /// excluded authors saved, when its history from its start is still there).
    private func incrementalReads(
        _ stores: [Store], from token: ChangeHistoryToken?, excluding excludedAuthors: Set<String>
    ) throws -> [(Store, Changes)]? {
        guard let token else { return nil }
        let present = Set(try stores.filter { try $0.head() != nil }.map(\.name))
        guard token.stores.keys.allSatisfy(present.contains) else { return nil }
        var reads: [(Store, Changes)] = []
        for store in stores {
            guard let point = token.stores[store.name] else {
                // Read from the store's start, so an excluded author's first saves stay out too;
                // a start compacted or reset away leaves all it holds.
                let start =
                    try excludedAuthors.isEmpty
                    ? nil : store.head().map { ChangeHistoryToken.Point(generation: $0.generation, seq: 0) }
                reads.append((store, try start.flatMap { try store.since($0, excludedAuthors) } ?? store.everything()))
                continue
            }
            guard let changes = try store.since(point, excludedAuthors) else { return nil }
            reads.append((store, changes))
        }
        return reads
    }
}
