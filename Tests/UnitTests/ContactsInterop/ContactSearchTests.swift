import AppGroupStore
import Contacts
import ContactsInterop
import Testing

@Suite("Contact search")
struct InteropContactSearchTests {
    static func contact(
        _ id: String, given: String = "", middle: String = "", family: String = "", nickname: String = "",
        organization: String = "", emails: [String] = [], phones: [String] = []
    ) -> ContactRecord {
        var record = ContactRecord(identifier: id)
        record.givenName = given
        record.middleName = middle
        record.familyName = family
        record.nickname = nickname
        record.organizationName = organization
        record.emailAddresses = emails.map { .init(label: CNLabelHome, value: $0) }
        record.phoneNumbers = phones.map { .init(label: CNLabelPhoneNumberMobile, value: $0) }
        return record
    }

    static let john = contact(
        "john", given: "John", family: "Appleseed", emails: ["John.Appleseed@Example.com"],
        phones: ["+1 408 555 0101"])
    static let zoe = contact("zoe", given: "Zoe", family: "Dupont", phones: ["+33 6 12 34 56 78"])
    static let wesley = contact("wesley", given: "Wesley", family: "de Groot", nickname: "Wes")
    static let acme = contact("acme", organization: "Acme Plumbing Co.", phones: ["555-0199"])
    static let jose = contact("jose", given: "José", middle: "Ángel", family: "Núñez")
    static let all = [john, zoe, wesley, acme, jose]

    static func names(_ query: ContactSearch.Query) -> [String] {
        ContactSearch.search(all, query).map(\.identifier)
    }

    // MARK: Name

    @Test(
        "Name: every query word is a prefix of some name word",
        arguments: [
            ("jo app", ["john"]),
            ("John Appleseed", ["john"]),
            ("appleseed", ["john"]),
            ("APP JO", ["john"]),
            ("DE GROOT", ["wesley"]),
            ("groot", ["wesley"]),
            ("wes", ["wesley"]),
            ("acme plumb", ["acme"]),
            ("co.", ["acme"]),
        ])
    func namePrefixes(query: String, expected: [String]) {
        #expect(Self.names(.name(query)) == expected)
    }

    @Test("Name: case and diacritics are ignored in both directions")
    func nameDiacritics() {
        #expect(Self.names(.name("zoë")) == ["zoe"])
        #expect(Self.names(.name("ZOE")) == ["zoe"])
        #expect(Self.names(.name("jose angel nunez")) == ["jose"])
        #expect(Self.names(.name("NÚÑ")) == ["jose"])
        // Decomposed input (e + combining diaeresis) folds the same as precomposed.
        #expect(Self.names(.name("Zoe\u{308}")) == ["zoe"])
    }

    @Test("Name: no match when a word is only inside a name, or one word does not match")
    func nameNoMatch() {
        #expect(Self.names(.name("seed")).isEmpty)
        #expect(Self.names(.name("john smith")).isEmpty)
        #expect(Self.names(.name("zzz")).isEmpty)
        #expect(Self.names(.name("")).isEmpty)
        #expect(Self.names(.name("   ")).isEmpty)
        #expect(!ContactSearch.matches(Self.john, query: .name("plumbing")))
    }

    @Test("Name: a prefix of the whole query that spans words does not match a single word")
    func nameWordBoundaries() {
        #expect(Self.names(.name("johnapple")).isEmpty)
        #expect(Self.names(.name("j a")) == ["john", "jose"])
    }

    // MARK: Email

    @Test("Email: the whole address, case-insensitive, trimmed")
    func email() {
        #expect(Self.names(.email("john.appleseed@example.com")) == ["john"])
        #expect(Self.names(.email("  JOHN.APPLESEED@EXAMPLE.COM \n")) == ["john"])
        #expect(Self.names(.email("john.appleseed@example")).isEmpty)
        #expect(Self.names(.email("appleseed@example.com")).isEmpty)
        #expect(Self.names(.email("")).isEmpty)
    }

    // MARK: Phone

    @Test(
        "Phone: formatting is ignored; a suffix of at least 7 digits matches",
        arguments: [
            ("(408) 555-0101", ["john"]),
            ("+1 408 555 0101", ["john"]),
            ("+1-408-555-0101", ["john"]),
            ("14085550101", ["john"]),
            ("555 0101", ["john"]),
            ("6 12 34 56 78", ["zoe"]),
            ("+33612345678", ["zoe"]),
            ("555-0199", ["acme"]),
            ("tel:+1.408.555.0101", ["john"]),
        ])
    func phoneMatches(query: String, expected: [String]) {
        #expect(Self.names(.phone(query)) == expected)
    }

    @Test("Phone: no match for short suffixes, different numbers or no digits")
    func phoneNoMatch() {
        #expect(Self.names(.phone("0101")).isEmpty)
        #expect(Self.names(.phone("55-0101")).isEmpty)
        #expect(Self.names(.phone("+1 408 555 0102")).isEmpty)
        #expect(Self.names(.phone("+2 408 555 0101 9")).isEmpty)
        #expect(Self.names(.phone("call me")).isEmpty)
        // Digits only: a national trunk prefix ("0") is not dropped, so this is not a suffix of +33 6 ….
        #expect(Self.names(.phone("06 12 34 56 78")).isEmpty)
        #expect(Self.names(.phone("")).isEmpty)
        #expect(Self.names(.phone("+")).isEmpty)
        // "0199" alone is too short to match the end of "555-0199".
        #expect(!ContactSearch.matches(Self.acme, query: .phone("0199")))
    }

    @Test("Search keeps the records' order and returns every match")
    func searchOrder() {
        let twins = [
            Self.contact("b", given: "Ann", phones: ["408 555 0101"]),
            Self.contact("a", given: "Anna", phones: ["+1 (408) 555-0101"]),
        ]
        #expect(ContactSearch.search(twins, .name("ann")).map(\.identifier) == ["b", "a"])
        #expect(ContactSearch.search(twins, .phone("4085550101")).map(\.identifier) == ["b", "a"])
        #expect(ContactSearch.search([], .name("x")).isEmpty)
        // Digits of other scripts count as digits (Arabic-Indic ٤٠٨٥٥٥٠١٠١ = 4085550101).
        #expect(ContactSearch.search(twins, .phone("٤٠٨٥٥٥٠١٠١")).map(\.identifier) == ["b", "a"])
    }
}
