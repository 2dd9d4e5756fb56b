import AppGroupStore
import Contacts
import Foundation
import TestSupport
import Testing

/// Issue 41: sort orders and key descriptors with Apple's shapes — `CNContactSortOrder`, a fetch request's
/// `sortOrder`, `CNContact.comparator(forNameSortOrder:)`, `CNContactsUserDefaults` and the formatters'
/// required keys.
@Suite("Contacts: sort orders and key descriptors")
struct ContactSortingTests {
    static func contact(given: String = "", family: String = "", organization: String = "") -> CNContact {
        let contact = CNMutableContact()
        contact.givenName = given
        contact.familyName = family
        contact.organizationName = organization
        return contact.copy() as! CNContact
    }

    /// Mixed names: people, a company without a name, a nameless contact, accents and numbers.
    static var mixed: [CNContact] {
        [
            contact(given: "zoë", family: "Adams"),
            contact(),
            contact(given: "Ada", family: "Lovelace"),
            contact(organization: "Babbage & Co"),
            contact(given: "Émile", family: "Zola"),
            contact(given: "Ada", family: "Byron"),
            contact(given: "Item 10"),
            contact(given: "item 2"),
        ]
    }

    static func names(_ contacts: [CNContact]) -> [String] {
        contacts.map { CNContactFormatter.string(from: $0, style: .fullName) ?? "(no name)" }
    }

    static func sorted(_ contacts: [CNContact], _ order: CNContactSortOrder) -> [CNContact] {
        let comparator = CNContact.comparator(forNameSortOrder: order)
        return contacts.sorted { comparator($0, $1) == .orderedAscending }
    }

    @Test("The raw values are Apple's and a fetch request does not sort by default")
    func rawValuesAndDefault() {
        #expect(CNContactSortOrder.none.rawValue == 0)
        #expect(CNContactSortOrder.userDefault.rawValue == 1)
        #expect(CNContactSortOrder.givenName.rawValue == 2)
        #expect(CNContactSortOrder.familyName.rawValue == 3)
        #expect(CNContactFetchRequest(keysToFetch: []).sortOrder == .none)
    }

    @Test(
        "By given name: given, then family; a company by its organization; the nameless last; case, accents and numbers"
    )
    func byGivenName() {
        #expect(
            Self.names(Self.sorted(Self.mixed, .givenName)) == [
                "Ada Byron", "Ada Lovelace", "Babbage & Co", "Émile Zola", "item 2", "Item 10", "zoë Adams",
                "(no name)",
            ])
    }

    @Test("By family name: family, then given; a name-only contact sorts by the name it has")
    func byFamilyName() {
        #expect(
            Self.names(Self.sorted(Self.mixed, .familyName)) == [
                "zoë Adams", "Babbage & Co", "Ada Byron", "item 2", "Item 10", "Ada Lovelace", "Émile Zola",
                "(no name)",
            ])
    }

    @Test("The user's default is family name, as iOS's default for English; none finds every pair the same")
    func userDefaultAndNone() {
        #expect(CNContactsUserDefaults.shared().sortOrder == .familyName)
        #expect(CNContactsUserDefaults.shared() === CNContactsUserDefaults.shared())
        #expect(CNContactsUserDefaults.shared().countryCode == CNContactsUserDefaults.shared().countryCode.lowercased())
        #expect(Self.names(Self.sorted(Self.mixed, .userDefault)) == Self.names(Self.sorted(Self.mixed, .familyName)))
        let none = CNContact.comparator(forNameSortOrder: .none)
        #expect(none(Self.mixed[0], Self.mixed[2]) == .orderedSame)
        let byGiven = CNContact.comparator(forNameSortOrder: .givenName)
        #expect(byGiven(Self.mixed[2], "not a contact") == .orderedSame)
        #expect(byGiven(Self.mixed[2], Self.mixed[0]) == .orderedAscending)
        #expect(byGiven(Self.mixed[0], Self.mixed[2]) == .orderedDescending)
    }

    @Test("enumerateContacts honours sortOrder over the device's contacts; equal names keep the store's order")
    func fetchRequestSorts() throws {
        try withTemporaryAppGroup { group in
            let system = JournaledStore<NoMetadata>(directory: group.path + "/domains/defaultDomain/store")
            func record(_ identifier: String, _ given: String, _ family: String) -> ContactRecord {
                var record = ContactRecord(identifier: identifier)
                record.givenName = given
                record.familyName = family
                return record
            }
            try system.append(upsert: [
                record("1", "Carl", "Adams"), record("2", "Ada", "Zola"), record("3", "Ada", "Zola"),
                record("4", "Bea", "Miller"),
            ])
            try system.compact()
            let store = CNContactStore(appGroup: group.appGroup)
            func fetch(_ order: CNContactSortOrder?) throws -> [String] {
                let request = CNContactFetchRequest(keysToFetch: [CNContact.descriptorForAllComparatorKeys()])
                if let order { request.sortOrder = order }
                var identifiers: [String] = []
                try store.enumerateContacts(with: request) { contact, _ in
                    identifiers.append(String(contact.identifier.split(separator: "/").last ?? ""))
                }
                return identifiers
            }
            #expect(try fetch(.givenName) == ["2", "3", "4", "1"])
            #expect(try fetch(.familyName) == ["1", "4", "2", "3"])
            #expect(try fetch(.userDefault) == ["1", "4", "2", "3"])
            #expect(try fetch(nil).sorted() == ["1", "2", "3", "4"])
        }
    }

    @Test("Key descriptors name what the formatter and the comparator read, and fetch with them")
    func keyDescriptors() throws {
        let fullName = CNContactFormatter.descriptorForRequiredKeys(for: .fullName)
        let request = CNContactFetchRequest(keysToFetch: [
            CNContactGivenNameKey as CNKeyDescriptor, fullName, CNContact.descriptorForAllComparatorKeys(),
            CNContactVCardSerialization.descriptorForRequiredKeys(),
            CNContactFormatter.descriptorForRequiredKeysForNameOrder,
            CNContactFormatter.descriptorForRequiredKeysForDelimiter,
        ])
        #expect(request.keysToFetch.count == 6)
        let contact = try #require(Self.mixed.first)
        #expect(contact.isKeyAvailable(CNContactFamilyNameKey))
        #expect(contact.areKeysAvailable([fullName, CNContact.descriptorForAllComparatorKeys()]))
    }
}
