import AppGroupStore
import ContactsInterop
import Foundation

/// The user's contacts as an app sees them with Apple's API: the device's own contacts (the local
/// container, which apps write to) beside every Contact Provider extension's read-only contacts.
///
/// Here the "device" is the App Group's: its own contacts and groups (`<App Group>/device/contacts`,
/// a journaled store every process shares under its locks) are the local container
/// (`CNContainerType.local`, the ``defaultContainerIdentifier()``), and each domain the system has
/// received contacts for is one more container (`CNContainerType.unassigned`, named after the domain),
/// holding exactly what the system store holds — what syncs delivered, not what the app's database
/// says. So an app's test asserts what the user sees with the same calls it makes on iOS:
///
/// ```swift
/// let store = CNContactStore()
/// let containers = try store.containers(matching: nil)
/// let seen = try store.unifiedContacts(
///     matching: CNContact.predicateForContactsInContainer(withIdentifier: containers[1].identifier),
///     keysToFetch: [CNContactGivenNameKey as CNKeyDescriptor])
/// ```
///
/// `execute(_:)` adds, updates and deletes the device's own contacts; provided contacts stay
/// read-only (`CNError.recordNotWritable`, `CNError.parentContainerNotWritable`). Access follows the
/// device's setting (`contacts-host device authorization`; authorized when none was set). A
/// provided contact's `identifier` is `<container identifier>/<the provider's item identifier>`,
/// stable across syncs; the device's own contacts keep the identifier they were added with. What
/// changed since a point is the change history (``currentHistoryToken``, `CNChangeHistoryFetchRequest`),
/// which Swift reads through the app's Objective-C wrapper on iOS and ``ContactsChangeHistory`` here.
open class CNContactStore: NSObject, @unchecked Sendable {
    let appGroup: AppGroup

    /// A store over the current App Group's simulated device.
    public override init() {
        appGroup = .current
        super.init()
        Self.watchForChanges(appGroup)
    }

    /// A store over `appGroup`'s simulated device (the simulator's own tools and tests).
    package init(appGroup: AppGroup) {
        self.appGroup = appGroup
        super.init()
        Self.watchForChanges(appGroup)
    }

    /// The app's access to the device's contacts, as the user set it for the current App Group's
    /// device (`.authorized` when nothing was set; `contacts-host device authorization` sets it).
    open class func authorizationStatus(for entityType: CNEntityType) -> CNAuthorizationStatus {
        currentAuthorizationStatus()
    }

    /// Asks the user for access when nobody asked yet (the simulated user gives the answer
    /// `contacts-host device authorization not-determined --answer` set, `allow` by default) and
    /// answers whether the app may read contacts; `error` is `CNError.authorizationDenied` when not.
    open func requestAccess(
        for entityType: CNEntityType, completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        requestAccess(completionHandler: completionHandler)
    }

    /// Asks the user for access when nobody asked yet, as `requestAccess(for:completionHandler:)`
    /// does; throws `CNError.authorizationDenied` when the app may not read contacts.
    open func requestAccess(for entityType: CNEntityType) async throws -> Bool {
        try requestAccessOrThrow()
    }

    /// The groups matching `predicate` (every group when nil), in the order they were created.
    ///
    /// - Throws: `CNError.authorizationDenied` without access; `CNError.predicateInvalid` for a
    ///   predicate that is not `CNGroup`'s.
    open func groups(matching predicate: NSPredicate?) throws -> [CNGroup] {
        try fetchGroups(matching: predicate)
    }

    /// Saves `saveRequest` to the device's own contacts, all of it or nothing, in one durable write
    /// that every process sees.
    ///
    /// - Throws: `CNError.authorizationDenied` without access; `CNError.parentContainerNotWritable`
    ///   when a contact is added to a provider's container and `CNError.recordNotWritable` when a
    ///   provided contact is updated or deleted (a Contact Provider extension's contacts are
    ///   read-only to apps: only its extension changes them); `CNError.parentRecordDoesNotExist` for
    ///   an unknown container; `CNError.insertedRecordAlreadyExists` and `CNError.recordDoesNotExist`
    ///   as Apple's store does.
    open func execute(_ saveRequest: CNSaveRequest) throws {
        try save(saveRequest)
    }

    /// The identifier of the container new contacts go to: the device's own (local) container.
    open func defaultContainerIdentifier() -> String {
        Self.localContainerIdentifier
    }

    /// The containers matching `predicate` (every container when nil).
    open func containers(matching predicate: NSPredicate?) throws -> [CNContainer] {
        let all = try deviceContainers().map(\.container)
        guard let predicate else { return all }
        switch try Self.storePredicate(predicate).kind {
        case .containers(let identifiers): return all.filter { identifiers.contains($0.identifier) }
        case .containerOfContact(let identifier):
            if !Self.isProvidedContactIdentifier(identifier) {
                let own = try DeviceContacts(appGroup: appGroup).contents().contacts
                return own.contains { $0.identifier == identifier } ? all.filter { $0.type == .local } : []
            }
            return all.filter { identifier.hasPrefix($0.identifier + "/") }
        default: throw Self.invalid(predicate)
        }
    }

    /// The contacts matching `predicate`. Every value is fetched whatever `keys` asks for (a contact
    /// here always holds every value, see `isKeyAvailable(_:)`).
    open func unifiedContacts(matching predicate: NSPredicate, keysToFetch keys: [any CNKeyDescriptor]) throws
        -> [CNContact]
    {
        let kind = try Self.storePredicate(predicate).kind
        var result: [CNContact] = []
        for (container, records) in try deviceContainers().map({ ($0.container, try $0.records()) }) {
            let chosen: [ContactRecord]
            switch kind {
            case .contactsMatchingName(let name): chosen = ContactSearch.search(records, .name(name))
            case .contactsMatchingEmailAddress(let address): chosen = ContactSearch.search(records, .email(address))
            case .contactsMatchingPhoneNumber(let number): chosen = ContactSearch.search(records, .phone(number))
            case .contactsInContainer(let identifier): chosen = identifier == container.identifier ? records : []
            case .contactsWithIdentifiers(let identifiers):
                let wanted = Set(identifiers)
                chosen = records.filter { wanted.contains(Self.contactIdentifier(container, $0)) }
            case .contactsInGroup(let identifier):
                // Groups are the local container's only: the other containers need not read them.
                let members = container.type == .local ? try groupMembers(identifier) : []
                chosen = records.filter { members.contains($0.identifier) }
            case .containers, .containerOfContact, .groupsWithIdentifiers, .groupsInContainer:
                throw Self.invalid(predicate)
            }
            result += chosen.map { $0.makeContact(identifier: Self.contactIdentifier(container, $0)) }
        }
        return result
    }

    /// The contact with `identifier`; `CNError.recordDoesNotExist` when there is none.
    open func unifiedContact(withIdentifier identifier: String, keysToFetch keys: [any CNKeyDescriptor]) throws
        -> CNContact
    {
        guard
            let contact = try unifiedContacts(
                matching: CNContact.predicateForContacts(withIdentifiers: [identifier]), keysToFetch: keys
            ).first
        else {
            throw CNError(
                .recordDoesNotExist,
                userInfo: [NSLocalizedDescriptionKey: "No contact has the identifier \(identifier)."])
        }
        return contact
    }

    /// Calls `block` with each contact the request matches (every contact without a predicate), in the
    /// request's `sortOrder`, until it sets its `stop` argument.
    open func enumerateContacts(
        with fetchRequest: CNContactFetchRequest, usingBlock block: (CNContact, UnsafeMutablePointer<ObjCBool>) -> Void
    ) throws {
        let contacts: [CNContact]
        if let predicate = fetchRequest.predicate {
            contacts = try unifiedContacts(matching: predicate, keysToFetch: fetchRequest.keysToFetch)
        } else {
            contacts = try deviceContainers().flatMap { device in
                try device.records().map { $0.makeContact(identifier: Self.contactIdentifier(device.container, $0)) }
            }
        }
        var stop: ObjCBool = false
        for contact in CNContact.sorted(contacts, by: fetchRequest.sortOrder) {
            block(fetchRequest.mutableObjects ? contact : contact.copy() as! CNContact, &stop)
            if stop.boolValue { return }
        }
    }

    // MARK: The simulated device

    /// The device's own container's identifier.
    static let localContainerIdentifier = "CNContainer.local"
    /// The device's own container's name (the iOS Contacts app's name for it).
    static let localContainerName = "iPhone"
    /// The prefix of a provider domain's container identifier.
    static let providerContainerPrefix = "ContactProvider."

    /// The device's own container.
    static var localContainer: CNContainer {
        CNContainer(identifier: localContainerIdentifier, name: localContainerName, type: .local)
    }

    /// A provided contact's identifier is `<container>/<item identifier>`; the device's own contacts
    /// keep theirs.
    static func contactIdentifier(_ container: CNContainer, _ record: ContactRecord) -> String {
        container.type == .local ? record.identifier : container.identifier + "/" + record.identifier
    }

    /// Whether `identifier` names a contact a provider supplied (read-only to apps).
    static func isProvidedContactIdentifier(_ identifier: String) -> Bool {
        identifier.hasPrefix(providerContainerPrefix) && identifier.contains("/")
    }

    /// One container of the device: the local one, or one domain's system store.
    struct DeviceContainer {
        var container: CNContainer
        /// The records it holds, all of them (the access setting is applied by `records()`).
        var load: () throws -> [ContactRecord]
        /// With limited access: the contact identifiers the app may see.
        var visible: Set<String>?

        func records() throws -> [ContactRecord] {
            let all = try load()
            guard let visible else { return all }
            return all.filter { visible.contains(CNContactStore.contactIdentifier(container, $0)) }
        }
    }

    /// The device's own container, then every domain whose system store exists, sorted by name.
    ///
    /// - Throws: `CNError.authorizationDenied` when the app may not read contacts.
    func deviceContainers() throws -> [DeviceContainer] {
        let visible = try readableContactIdentifiers()
        let device = DeviceContacts(appGroup: appGroup)
        var containers = [
            DeviceContainer(container: Self.localContainer, load: { try device.contents().contacts }, visible: visible)
        ]
        let domains = appGroup.path + "/domains"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: domains)) ?? []
        containers += names.sorted().compactMap { name in
            let directory = domains + "/" + name + "/store"
            guard FileManager.default.fileExists(atPath: directory + "/snapshot.jsonl") else { return nil }
            return DeviceContainer(
                container: CNContainer(identifier: Self.providerContainerPrefix + name, name: name, type: .unassigned),
                load: { try JournaledStore<IgnoredStoreState>(directory: directory).load().contacts },
                visible: visible)
        }
        return containers
    }

    private static func storePredicate(_ predicate: NSPredicate) throws -> CNStorePredicate {
        guard let predicate = predicate as? CNStorePredicate else { throw invalid(predicate) }
        return predicate
    }

    private static func invalid(_ predicate: NSPredicate) -> CNError {
        let what = (predicate as? CNStorePredicate)?.summary ?? "an NSPredicate of another kind"
        return CNError(
            .predicateInvalid,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "A contact store fetches with the predicates CNContact and CNContainer make; \(what) is not one for this fetch."
            ])
    }
}

/// The system store's own state, which an app reading contacts does not need: any value decodes.
struct IgnoredStoreState: Codable, Equatable, Sendable {
    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {}
}

/// A fetch of contacts: which keys, which contacts, and whether they come back mutable.
open class CNContactFetchRequest: NSObject, @unchecked Sendable {
    /// The keys to fetch (every value is fetched here).
    open var keysToFetch: [any CNKeyDescriptor]
    /// Which contacts; nil for every contact.
    open var predicate: NSPredicate?
    /// Whether the contacts come back as `CNMutableContact`s.
    open var mutableObjects = false
    /// Whether linked contacts are unified (each contact is its own here).
    open var unifyResults = true
    /// The order of the contacts; `.none` (the store's order) by default, as on iOS.
    open var sortOrder: CNContactSortOrder = .none

    /// A request for `keysToFetch`.
    public init(keysToFetch: [any CNKeyDescriptor]) {
        self.keysToFetch = keysToFetch
    }
}

/// Changes to save to a contact store: the device's own contacts (see `CNContactStore.execute(_:)`).
open class CNSaveRequest: NSObject, @unchecked Sendable {
    /// The contacts to add, with their container identifiers.
    package private(set) var added: [(CNMutableContact, String?)] = []
    /// The contacts to update.
    package private(set) var updated: [CNMutableContact] = []
    /// The contacts to delete.
    package private(set) var deleted: [CNMutableContact] = []
    /// The groups to add, with their container identifiers.
    package private(set) var addedGroups: [(CNMutableGroup, String?)] = []
    /// The groups to rename.
    package private(set) var updatedGroups: [CNMutableGroup] = []
    /// The groups to delete.
    package private(set) var deletedGroups: [CNMutableGroup] = []
    /// The contacts to put in groups.
    package private(set) var addedMembers: [(CNContact, CNGroup)] = []
    /// The contacts to take out of groups.
    package private(set) var removedMembers: [(CNContact, CNGroup)] = []

    /// A name for whoever makes this save (iOS 15): your app, its widget, its sync engine.
    ///
    /// The store records it with every change the save commits, in the same durable write. Give the
    /// same name in a `CNChangeHistoryFetchRequest`'s `excludedTransactionAuthors` and that fetch
    /// leaves these changes out: the app does not process again what it saved itself. Nil (the
    /// default) names nobody, and no fetch can exclude the save. Contacts a Contact Provider
    /// extension's sync delivers have no author.
    open var transactionAuthor: String?

    public override init() {}

    /// Adds `group` to the container with `identifier` (the default container when nil).
    open func add(_ group: CNMutableGroup, toContainerWithIdentifier identifier: String?) {
        addedGroups.append((group, identifier))
    }

    /// Saves `group`'s new name.
    open func update(_ group: CNMutableGroup) {
        updatedGroups.append(group)
    }

    /// Deletes `group` (its members stay in their container).
    open func delete(_ group: CNMutableGroup) {
        deletedGroups.append(group)
    }

    /// Puts `contact` in `group`.
    open func addMember(_ contact: CNContact, to group: CNGroup) {
        addedMembers.append((contact, group))
    }

    /// Takes `contact` out of `group`.
    open func removeMember(_ contact: CNContact, from group: CNGroup) {
        removedMembers.append((contact, group))
    }

    /// Adds `contact` to the container with `identifier` (the default container when nil).
    open func add(_ contact: CNMutableContact, toContainerWithIdentifier identifier: String?) {
        added.append((contact, identifier))
    }

    /// Saves `contact`'s changes.
    open func update(_ contact: CNMutableContact) {
        updated.append(contact)
    }

    /// Deletes `contact`.
    open func delete(_ contact: CNMutableContact) {
        deleted.append(contact)
    }
}
