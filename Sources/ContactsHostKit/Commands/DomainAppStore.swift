import AppGroupStore
import AppStores
import ContactProviderSystem
import ContactsInterop
import Foundation

/// The app's store of the domain, as `enable --backend KIND` chose it and the contact commands
/// reach it.
///
/// The App Group database (the default) keeps the commands' own code path: the journal's O(1)
/// `add`, grouped imports, the name index. Any other store on this machine (`seed-json`, `exec:`)
/// is edited through the backend the conformance kit uses (AppStores), so the host writes exactly
/// what a provider with its own store reads. A CardDAV store lives on a server: `contacts-host` links
/// no networking, so its commands run in `contacts-host-conformance` (``NetworkedAppStores``).
struct DomainAppStore {
    /// The store's kind, as `--backend` spells it.
    let kind: ConformanceBackendKind
    /// The backend that edits it.
    let backend: any ConformanceBackend

    /// The option that names the store, for messages.
    static let option = "enable --backend"

    /// The store `configuration` names; the App Group database when it names none (files written
    /// before `--backend` existed).
    static func kind(of configuration: DomainConfiguration) throws -> ConformanceBackendKind {
        guard let text = configuration.backend else { return .appDatabase }
        do {
            return try ConformanceBackendKind.parse(text)
        } catch {
            throw CommandFailure(
                "domain.json names the app's store '\(text)', which is not a store kind (\(error)); "
                    + "choose one with 'contacts-host \(option) KIND'")
        }
    }

    /// The store of the default domain of `context`'s App Group.
    static func kind(_ context: CommandContext) throws -> ConformanceBackendKind {
        let paths = try DomainPaths(appGroup: context.appGroup, domain: DomainManager.defaultDomainIdentifier)
        return try kind(of: DomainConfiguration.load(from: paths.configuration))
    }

    /// The store to edit through its backend, or nil for the App Group database (the commands' own path).
    ///
    /// - Throws: ``RunsInNetworkedExecutable`` for a CardDAV store in `contacts-host` (it forwards the
    ///   command), and `CommandFailure` when a store cannot be opened (an exec adapter does not start).
    static func other(_ context: CommandContext) throws -> DomainAppStore? {
        try other(kind: kind(context), appGroup: context.appGroup)
    }

    /// The store of `kind` in `appGroup`, or nil for the App Group database.
    static func other(kind: ConformanceBackendKind, appGroup: AppGroup) throws -> DomainAppStore? {
        switch kind {
        case .appDatabase:
            return nil
        case .carddav:
            guard let make = NetworkedAppStores.registered else { throw RunsInNetworkedExecutable(kind: kind) }
            do {
                return DomainAppStore(kind: kind, backend: try make(kind, appGroup))
            } catch let error as ConformanceBackendError {
                throw failure("open", error)
            }
        case .seedJSON, .exec:
            do {
                return DomainAppStore(kind: kind, backend: try kind.makeLocalBackend(appGroup: appGroup))
            } catch let error as ConformanceBackendError {
                throw failure("open", error)
            }
        }
    }

    /// A backend's error as the command's, naming the store, what failed and where it was chosen.
    static func failure(_ what: String, _ error: ConformanceBackendError) -> CommandFailure {
        CommandFailure("the app's store could not \(what): \(error.message) (the store was chosen with '\(option)')")
    }

    /// Runs `body` on the backend; its errors name the store.
    func perform<Result>(_ what: String, _ body: (any ConformanceBackend) throws -> Result) throws -> Result {
        do {
            return try body(backend)
        } catch let error as ConformanceBackendError {
            throw Self.failure(what, error)
        }
    }

    /// Every contact of the store.
    func contacts() throws -> [ContactRecord] { try perform("be read") { try $0.contacts() } }

    /// The contact `identifier`; throws `StoreError.notFound` when there is none.
    func contact(_ identifier: String) throws -> ContactRecord {
        guard let record = try contacts().first(where: { $0.identifier == identifier }) else {
            throw StoreError.notFound(identifier: identifier)
        }
        return record
    }

    /// Adds `record` (a new UUID when it has no identifier); a known identifier is refused.
    func add(_ record: ContactRecord) throws -> ContactRecord {
        var record = record
        if record.identifier.isEmpty {
            record.identifier = UUID().uuidString
        } else if try contacts().contains(where: { $0.identifier == record.identifier }) {
            throw StoreError.duplicateIdentifier(record.identifier)
        }
        try perform("add \(record.identifier)") { try $0.add(record) }
        return record
    }

    /// Changes the contact `identifier`; throws `StoreError.notFound` when there is none.
    func update(_ identifier: String, _ change: (inout ContactRecord) throws -> Void) throws -> ContactRecord {
        var record = try contact(identifier)
        try change(&record)
        record.identifier = identifier
        try perform("update \(identifier)") { try $0.update(record) }
        return record
    }

    /// Deletes contacts: every identifier is checked first, so an unknown one deletes none.
    func delete(_ identifiers: [String]) throws {
        let known = Set(try contacts().map(\.identifier))
        if let unknown = identifiers.first(where: { !known.contains($0) }) {
            throw StoreError.notFound(identifier: unknown)
        }
        for identifier in Set(identifiers).sorted() {
            try perform("delete \(identifier)") { try $0.delete(identifier: identifier) }
        }
    }

    /// Adds or replaces `records`. A seed-json file is written once, whole (atomically); an
    /// adapter gets one request per contact, and a failure says how many were written before it.
    func upsert(_ records: [ContactRecord], progress: (Int) -> Void) throws -> (added: Int, updated: Int) {
        let known = Set(try contacts().map(\.identifier))
        let updated = Set(records.map(\.identifier)).intersection(known).count
        let added = Set(records.map(\.identifier)).count - updated
        if let file = backend as? SeedJSONBackend {
            try perform("write \(records.count) contacts") { _ in try file.add(contentsOf: records) }
            progress(records.count)
            return (added, updated)
        }
        for (index, record) in records.enumerated() {
            do {
                if known.contains(record.identifier) {
                    try backend.update(record)
                } else {
                    try backend.add(record)
                }
            } catch let error as ConformanceBackendError {
                throw Self.failure(
                    "write \(record.identifier) (\(index) of \(records.count) contacts were written before it)", error)
            }
            progress(index + 1)
        }
        return (added, updated)
    }

    /// Empties the store.
    func reset() throws { try perform("be reset") { try $0.reset() } }

    /// How many contacts the store of `kind` holds, for `status` and `signal`'s check; nil for a
    /// store the host cannot read (CardDAV) or that fails to answer (the check is advice, not a command).
    static func count(kind: ConformanceBackendKind, appGroup: AppGroup) -> Int? {
        switch kind {
        case .appDatabase:
            // Headers and journal entries: no contact is decoded.
            return try? AppDatabase(appGroup: appGroup).store.summary().count
        case .carddav:
            return nil
        case .seedJSON, .exec:
            return try? other(kind: kind, appGroup: appGroup)?.contacts().count
        }
    }
}
