import AppGroupStore
import ContactsInterop
import Foundation

/// The user's contacts as an app sees them with Apple's API: on a device, the contacts every Contact
/// Provider extension supplied are what the user sees in Contacts.
///
/// Here the "device" is the simulated Contacts daemon: each domain of the App Group that the system
/// has received contacts for is one container (`CNContainerType.unassigned`, named after the domain),
/// holding exactly what the system store holds — what syncs delivered, not what the app's database
/// says. So an app's test asserts what the user sees with the same calls it makes on iOS:
///
/// ```swift
/// let store = CNContactStore()
/// let containers = try store.containers(matching: nil)
/// let seen = try store.unifiedContacts(
///     matching: CNContact.predicateForContactsInContainer(withIdentifier: containers[0].identifier),
///     keysToFetch: [CNContactGivenNameKey as CNKeyDescriptor])
/// ```
///
/// It reads; it does not write (the device's own contacts are not modelled): `execute(_:)` throws
/// `CNError.noAccessableWritableContainers`. Access is authorized. Each contact's `identifier` is
/// `<container identifier>/<the provider's item identifier>`, stable across syncs.
open class CNContactStore: NSObject, @unchecked Sendable {
    private let appGroup: AppGroup

    /// A store over the current App Group's simulated device.
    public override init() {
        appGroup = .current
    }

    /// A store over `appGroup`'s simulated device (the simulator's own tools and tests).
    package init(appGroup: AppGroup) {
        self.appGroup = appGroup
    }

    /// Always `.authorized`: the simulated user has granted access.
    open class func authorizationStatus(for entityType: CNEntityType) -> CNAuthorizationStatus {
        .authorized
    }

    /// Grants access at once (the simulated user agrees).
    open func requestAccess(
        for entityType: CNEntityType, completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        completionHandler(true, nil)
    }

    /// Grants access at once (the simulated user agrees).
    open func requestAccess(for entityType: CNEntityType) async throws -> Bool {
        true
    }

    /// The identifier of the container new contacts would go to: the device's own, which this
    /// simulator does not model (it holds nothing, and nothing can be saved to it).
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
            case .containers, .containerOfContact: throw Self.invalid(predicate)
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

    /// Refused: the simulated device's containers are its providers', which only their extensions
    /// fill, and the device's own contacts are not modelled.
    open func execute(_ saveRequest: CNSaveRequest) throws {
        throw CNError(
            .noAccessableWritableContainers,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "The simulated device has no writable container: its contacts are the ones Contact Provider extensions supplied."
            ])
    }

    // MARK: The simulated device

    /// The device's own container's identifier (empty and read-only here).
    static let localContainerIdentifier = "CNContainer.local"

    /// `<container>/<item identifier>`.
    static func contactIdentifier(_ container: CNContainer, _ record: ContactRecord) -> String {
        container.identifier + "/" + record.identifier
    }

    /// One domain's system store, as a container.
    private struct DeviceContainer {
        var container: CNContainer
        var directory: String

        func records() throws -> [ContactRecord] {
            try JournaledStore<IgnoredStoreState>(directory: directory).load().contacts
        }
    }

    /// Every domain whose system store exists, sorted by name.
    private func deviceContainers() throws -> [DeviceContainer] {
        let domains = appGroup.path + "/domains"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: domains)) ?? []
        return names.sorted().compactMap { name in
            let directory = domains + "/" + name + "/store"
            guard FileManager.default.fileExists(atPath: directory + "/snapshot.jsonl") else { return nil }
            return DeviceContainer(
                container: CNContainer(identifier: "ContactProvider." + name, name: name, type: .unassigned),
                directory: directory)
        }
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

/// Changes to save to a contact store (the simulated device accepts none: see `CNContactStore.execute(_:)`).
open class CNSaveRequest: NSObject, @unchecked Sendable {
    /// The contacts to add, with their container identifiers.
    package private(set) var added: [(CNMutableContact, String?)] = []
    /// The contacts to update.
    package private(set) var updated: [CNMutableContact] = []
    /// The contacts to delete.
    package private(set) var deleted: [CNMutableContact] = []

    public override init() {}

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
