import AppGroupStore
import ContactProvider
import ContactProviderSystem
import ContactProviderTesting
import Contacts
import Foundation
import TestSupport
import Testing

/// The bridge's fast path (a contact built by `makeContact()` and left unchanged carries its record)
/// must give exactly what the field-by-field path gives, for every record and after any change.
@Suite("Bridge fast path: contact → record")
struct BridgeFastPathTests {
    /// A record with every kind of field, some left empty at random, some odd (unparsable dates,
    /// an unknown contact type, empty labels), so records that do not round-trip exactly are covered.
    static func randomRecord(_ index: Int, _ rng: inout SeededRandom) -> ContactRecord {
        func text(_ prefix: String) -> String {
            switch rng.next() % 6 {
            case 0: return ""
            case 1: return "\(prefix) é\u{301} \"quoted\" \\ / 😀"
            default: return "\(prefix)\(rng.next() % 1000)"
            }
        }
        func label() -> String? {
            [nil, "", "_$!<Home>!$_", "_$!<Mobile>!$_", "custom"][Int(rng.next() % 5)]
        }
        var record = ContactRecord(identifier: "id-\(index)")
        record.namePrefix = text("Dr")
        record.givenName = text("Given")
        record.middleName = text("Middle")
        record.familyName = text("Family")
        record.nameSuffix = text("Jr")
        record.nickname = text("Nick")
        record.organizationName = text("Org")
        record.departmentName = text("Dept")
        record.jobTitle = text("Job")
        record.note = text("Note\nline")
        record.previousFamilyName = text("Prev")
        record.phoneticGivenName = text("PG")
        record.phoneticMiddleName = text("PM")
        record.phoneticFamilyName = text("PF")
        record.phoneticOrganizationName = text("PO")
        record.contactType = [nil, nil, "organization", "person", "robot"][Int(rng.next() % 5)]
        if rng.next() % 4 == 0 { record.imageData = Data((0..<Int(rng.next() % 8)).map { UInt8($0) }) }
        for _ in 0..<Int(rng.next() % 3) { record.phoneNumbers.append(.init(label: label(), value: text("+1 555"))) }
        for _ in 0..<Int(rng.next() % 3) { record.emailAddresses.append(.init(label: label(), value: text("a@b"))) }
        for _ in 0..<Int(rng.next() % 2) { record.urlAddresses.append(.init(label: label(), value: text("https://x"))) }
        for _ in 0..<Int(rng.next() % 2) {
            var address = ContactRecord.LabeledPostalAddress(label: label())
            address.street = text("Street")
            address.city = text("City")
            address.postalCode = text("PC")
            address.isoCountryCode = text("fr")
            record.postalAddresses.append(address)
        }
        for _ in 0..<Int(rng.next() % 2) { record.contactRelations.append(.init(label: label(), value: text("Rel"))) }
        for _ in 0..<Int(rng.next() % 2) {
            var profile = ContactRecord.LabeledSocialProfile(label: label())
            profile.username = text("user")
            profile.service = text("svc")
            record.socialProfiles.append(profile)
        }
        for _ in 0..<Int(rng.next() % 2) {
            record.instantMessageAddresses.append(.init(label: label(), username: text("im"), service: text("svc")))
        }
        switch rng.next() % 8 {
        case 0: record.birthday = "1990-02-03"
        case 1: record.birthday = "--02-03"
        case 2: record.birthday = "not a date"
        // Parsed (`Int` reads a sign) but written back otherwise: never the fast path.
        case 3: record.birthday = ["+990-02-03", "1990-+2-03", "--+2-03", "1990-02-30x"][Int(rng.next() % 4)]
        default: break
        }
        if rng.next() % 6 == 0 {
            record.dates = [.init(label: label(), value: "2001-04-05"), .init(label: nil, value: "bad")]
        }
        if rng.next() % 8 == 0 { record.nonGregorianBirthday = .init(calendar: "hebrew", year: 5780, month: 3, day: 4) }
        return record
    }

    @Test("an unchanged contact gives the same record by both paths, for 2,000 random records")
    func unchangedContactsAgree() {
        var rng = SeededRandom(seed: 17)
        var fast = 0
        for index in 0..<2000 {
            let record = Self.randomRecord(index, &rng)
            let contact = record.makeContact()
            #expect((contact.bridgedRecord != nil) == record.bridgesExactly, "case \(index)")
            if contact.bridgedRecord != nil { fast += 1 }
            let viaFastPath = ContactRecord(contact, identifier: "item-\(index)")
            let viaFields = ContactRecord(fieldsOf: contact, identifier: "item-\(index)")
            #expect(viaFastPath == viaFields, "case \(index): \(record)")
            if record.bridgesExactly {
                var expected = record
                expected.identifier = "item-\(index)"
                #expect(viaFastPath == expected, "case \(index)")
            }
        }
        // Both paths were exercised.
        #expect(fast > 200 && fast < 2000)
    }

    @Test("any change to the contact, its copies or its mutable copies leaves the fast path")
    func changesLeaveTheFastPath() throws {
        var record = ContactRecord(identifier: "c1")
        record.givenName = "Ada"
        record.phoneNumbers = [.init(label: "_$!<Mobile>!$_", value: "+1 555 0100")]
        #expect(record.bridgesExactly)

        let changes: [(String, (CNMutableContact) -> Void)] = [
            ("givenName", { $0.givenName = "Grace" }),
            ("same value again", { $0.givenName = "Ada" }),
            (
                "phoneNumbers appended",
                {
                    $0.phoneNumbers.append(CNLabeledValue(label: nil, value: CNPhoneNumber(stringValue: "+44")))
                }
            ),
            ("imageData", { $0.imageData = Data([1, 2]) }),
            ("contactType", { $0.contactType = .organization }),
            ("birthday", { $0.birthday = DateComponents(year: 1990, month: 1, day: 2) }),
            (
                "dates",
                {
                    $0.dates = [CNLabeledValue(label: nil, value: DateComponents(month: 3, day: 4) as NSDateComponents)]
                }
            ),
            (
                "postal address",
                {
                    let address = CNMutablePostalAddress()
                    address.city = "Paris"
                    $0.postalAddresses = [CNLabeledValue(label: nil, value: address)]
                }
            ),
        ]
        for (name, change) in changes {
            let contact = record.makeContact()
            #expect(contact.bridgedRecord != nil, "\(name)")
            change(contact)
            #expect(contact.bridgedRecord == nil, "\(name)")
            #expect(
                ContactRecord(contact, identifier: "c1") == ContactRecord(fieldsOf: contact, identifier: "c1"),
                "\(name)")

            // A mutable copy starts on the fast path and leaves it when changed; the original is untouched.
            let original = record.makeContact()
            let copy = try #require(original.mutableCopy() as? CNMutableContact)
            #expect(ContactRecord(copy, identifier: "c1") == ContactRecord(fieldsOf: copy, identifier: "c1"), "\(name)")
            change(copy)
            #expect(ContactRecord(copy, identifier: "c1") == ContactRecord(fieldsOf: copy, identifier: "c1"), "\(name)")
            #expect(ContactRecord(original, identifier: "c1") == record, "\(name)")
        }
        let frozen = try #require(record.makeContact().copy() as? CNContact)
        #expect(ContactRecord(frozen, identifier: "c1") == record)
    }

    @Test("a date changed in place (NSDateComponents is mutable) is seen: such records never take the fast path")
    func datesChangedInPlace() {
        var record = ContactRecord(identifier: "c1")
        record.dates = [.init(label: nil, value: "2001-04-05")]
        let contact = record.makeContact()
        #expect(contact.bridgedRecord == nil)
        contact.dates[0].value.day = 9
        #expect(ContactRecord(contact, identifier: "c1").dates == [.init(label: nil, value: "2001-04-09")])
    }
}

/// System stores filled by the same content through differently-built items must be identical.
@Suite("Bridge fast path: system store differential")
struct BridgeFastPathSyncTests {
    static let pageSize = 7

    /// How a test provider turns the records of a page into items.
    enum ItemStyle: CaseIterable, Sendable {
        /// `record.makeItem()`: the fast path.
        case bridged
        /// The provider builds its own `CNMutableContact` field by field: the general path.
        case ownContacts
        /// `makeItem()`, then the provider changes every other contact before delivering it.
        case mutatedAfterBridging
        /// One page's worth of contacts built once (by the bridge) and reused, re-filled, on every
        /// page and sync.
        case reusedAcrossPages
    }

    /// A paging enumerator over a fixed list of records, in one of the item styles.
    final class StyledEnumerator: ContactItemEnumerator, @unchecked Sendable {
        let records: [ContactRecord]
        let style: ItemStyle
        private var cache: [String: CNMutableContact] = [:]

        init(records: [ContactRecord], style: ItemStyle) {
            self.records = records
            self.style = style
        }

        func item(_ record: ContactRecord, position: Int) -> ContactItem {
            switch style {
            case .bridged:
                return record.makeItem()
            case .ownContacts:
                // As a provider with its own model would write it.
                let contact = CNMutableContact()
                contact.givenName = record.givenName
                contact.familyName = record.familyName
                contact.organizationName = record.organizationName
                contact.phoneNumbers = record.phoneNumbers.map {
                    CNLabeledValue(label: $0.label, value: CNPhoneNumber(stringValue: $0.value))
                }
                contact.emailAddresses = record.emailAddresses.map {
                    CNLabeledValue(label: $0.label, value: $0.value as NSString)
                }
                contact.note = "edited " + record.note
                return .contact(contact, ContactItem.Identifier(record.identifier))
            case .mutatedAfterBridging:
                guard case .contact(let contact, let identifier) = record.makeItem() else { fatalError() }
                if position % 2 == 0 { contact.note = "edited " + record.note }
                return .contact(contact, identifier)
            case .reusedAcrossPages:
                // The same object for every position modulo the page size (distinct within a page),
                // re-filled from the record each time; its other fields stay those of its first record.
                let key = "slot\(position % BridgeFastPathSyncTests.pageSize)"
                let contact = cache[key] ?? record.makeContact()
                cache[key] = contact
                contact.givenName = record.givenName
                contact.familyName = record.familyName
                contact.organizationName = record.organizationName
                contact.phoneNumbers = record.phoneNumbers.map {
                    CNLabeledValue(label: $0.label, value: CNPhoneNumber(stringValue: $0.value))
                }
                contact.emailAddresses = record.emailAddresses.map {
                    CNLabeledValue(label: $0.label, value: $0.value as NSString)
                }
                contact.note = record.note
                return .contact(contact, ContactItem.Identifier(record.identifier))
            }
        }

        func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
            let start = page.offset
            let end = min(records.count, start + observer.suggestedPageSize)
            observer.didEnumerate((start..<end).map { item(records[$0], position: $0) })
            if end >= records.count {
                observer.didFinishEnumeratingContent(upTo: Data("gen".utf8))
            } else {
                observer.didFinishEnumeratingPage(
                    upTo: ContactItemPage(generationMarker: Data("gen".utf8), offset: end))
            }
        }

        func enumerateChanges(startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver)
            async
        {
            // One change batch re-sends the first three records (through the same style).
            if syncAnchor.offset == 0 {
                observer.didUpdate((0..<min(3, records.count)).map { item(records[$0], position: $0) })
            }
            observer.didFinishEnumeratingChanges(
                upTo: ContactItemSyncAnchor(generationMarker: Data("gen".utf8), offset: 1), moreComing: false)
        }

        func invalidate() async {}
    }

    /// What the system store holds after a full sync and one change batch with `style`.
    func systemStore(records: [ContactRecord], style: ItemStyle) async throws -> [ContactRecord] {
        return try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group) { $0.pageSize = Self.pageSize }
            let driver = AppleEnumeratorDriver(StyledEnumerator(records: records, style: style))
            let first = await engine.sync(driver: driver)
            #expect(first.error == nil)
            #expect(first.pages == (records.count + Self.pageSize - 1) / Self.pageSize)
            let second = await engine.sync(driver: driver)
            #expect(second.error == nil)
            #expect(second.updated == 3)
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            return try SystemStore(directory: paths.systemStore).load().contacts
        }
    }

    /// The store the general path gives: every item converted field by field.
    func expected(_ records: [ContactRecord], style: ItemStyle) -> [ContactRecord] {
        let enumerator = StyledEnumerator(records: records, style: style)
        return records.enumerated().map { position, record in
            guard case .contact(let contact, let identifier) = enumerator.item(record, position: position) else {
                fatalError()
            }
            return ContactRecord(fieldsOf: contact, identifier: identifier.value)
        }
    }

    @Test(
        "fast path, own contacts, mutated and reused contacts: each store is what the general path gives",
        arguments: ItemStyle.allCases)
    func storesMatchTheGeneralPath(style: ItemStyle) async throws {
        var rng = SeededRandom(seed: 1717)
        let records = (0..<60).map { BridgeFastPathTests.randomRecord($0, &rng) }
            .sorted { IdentifierOrder.precedes($0.identifier, $1.identifier) }
        let stored = try await systemStore(records: records, style: style).sorted {
            IdentifierOrder.precedes($0.identifier, $1.identifier)
        }
        let wanted = expected(records, style: style).sorted { IdentifierOrder.precedes($0.identifier, $1.identifier) }
        #expect(stored.count == records.count)
        #expect(stored == wanted)
        if style == .bridged {
            // The fast path changed nothing for records that round-trip exactly.
            for (record, kept) in zip(records, stored) where record.bridgesExactly {
                #expect(kept == record)
            }
        }
    }
}

extension BridgeFastPathSyncTests {
    @Test(
        "a content page's records (decoding deferred) are stored as the general path stores them, and only the transcript's names read their fields"
    )
    func deferredRecordsStayUndecoded() async throws {
        var rng = SeededRandom(seed: 1718)
        let records = (0..<60).map { BridgeFastPathTests.randomRecord($0, &rng) }
            .sorted { IdentifierOrder.precedes($0.identifier, $1.identifier) }
        // Each record as a content page makes it of its stored line (those the store refuses left out).
        let pairs: [(original: ContactRecord, paged: ContactRecord)] = records.compactMap { record in
            guard let line = try? ContactRecordCodec.encode(record),
                let paged = line.withUnsafeBytes({ ContactRecordCodec.deferringRecord($0) })
            else { return nil }
            return (record, paged)
        }
        #expect(pairs.count { $0.paged.defersDecoding } > 10)
        let stored = try await systemStore(records: pairs.map(\.paged), style: .bridged).sorted {
            IdentifierOrder.precedes($0.identifier, $1.identifier)
        }
        let wanted = expected(pairs.map(\.original), style: .bridged).sorted {
            IdentifierOrder.precedes($0.identifier, $1.identifier)
        }
        #expect(stored == wanted)
        // The transcript names the first five items of each call; nothing else reads a paged record's
        // fields on the way to the system's journal (the bridge, the checks, the commit's encoding).
        for (position, pair) in pairs.enumerated() where pair.paged.hasDecodedDeferredFields {
            #expect(position % Self.pageSize < 5, "record \(position) (\(pair.paged.identifier)) was decoded")
        }
        #expect(pairs.contains { $0.paged.defersDecoding && !$0.paged.hasDecodedDeferredFields })
    }
}

@Suite("Fresh contact and labeled-value identifiers")
struct FreshIdentifierTests {
    @Test("new contacts and labeled values get distinct version-4 UUID strings, as UUID().uuidString writes them")
    func uniqueUUIDShaped() throws {
        var seen = Set<String>()
        for _ in 0..<20_000 {
            let contact = CNMutableContact()
            let labeled = CNLabeledValue(label: nil, value: CNPhoneNumber(stringValue: "1"))
            for identifier in [contact.identifier, labeled.identifier] {
                let uuid = try #require(UUID(uuidString: identifier), "\(identifier)")
                #expect(uuid.uuidString == identifier)
                #expect(uuid.uuid.6 >> 4 == 4, "version 4: \(identifier)")
                #expect(uuid.uuid.8 >> 6 == 0b10, "RFC 4122 variant: \(identifier)")
                seen.insert(identifier)
            }
        }
        #expect(seen.count == 40_000)
    }

    @Test(
        "a contact the bridge makes has a fresh UUID too, made when first read (by the getter or with its values) and kept by copies"
    )
    func bridgedContactsGetOneFreshIdentifier() throws {
        var seen = Set<String>()
        var rng = SeededRandom(seed: 99)
        for index in 0..<3_000 {
            let record = BridgeFastPathTests.randomRecord(index, &rng)
            let contact = record.makeContact()
            // Every other contact is first read through its values (a name), the rest through the getter.
            if index % 2 == 0 { _ = contact.givenName }
            let identifier = contact.identifier
            let uuid = try #require(UUID(uuidString: identifier), "\(identifier)")
            #expect(uuid.uuidString == identifier && uuid.uuid.6 >> 4 == 4 && uuid.uuid.8 >> 6 == 0b10)
            #expect(contact.identifier == identifier && contact.givenName == record.givenName)
            #expect((contact.copy() as? CNContact)?.identifier == identifier)
            #expect((contact.mutableCopy() as? CNMutableContact)?.identifier == identifier)
            seen.insert(identifier)
        }
        #expect(seen.count == 3_000)
    }
}
