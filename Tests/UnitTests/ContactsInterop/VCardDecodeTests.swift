import AppGroupStore
import Contacts
import ContactsInterop
import Foundation
import Testing

@Suite("vCard decoding")
struct InteropVCardDecodeTests {
    // MARK: Real-world exports

    @Test("An Apple Contacts export: names, grouped labels, folded photo, omitted year, UID")
    func appleExport() throws {
        let result = VCard.decode(VCardFixtures.crlf(VCardFixtures.appleExport))
        #expect(result.errors.isEmpty)
        try #require(result.contacts.count == 2)
        let john = result.contacts[0]
        #expect(john.identifier == "4B1C6E0A-3F1D-4E4B-9C55-0A1B2C3D4E5F")
        #expect(john.namePrefix == "Mr.")
        #expect(john.givenName == "John")
        #expect(john.middleName == "Quincy")
        #expect(john.familyName == "Appleseed")
        #expect(john.nameSuffix == "Jr.")
        #expect(john.nickname == "Johnny")
        #expect(john.organizationName == "Apple Inc.")
        #expect(john.departmentName == "Engineering")
        #expect(john.jobTitle == "Software Engineer")
        #expect(
            john.emailAddresses == [
                .init(label: CNLabelHome, value: "john@example.com"),
                .init(label: CNLabelWork, value: "jappleseed@apple.com"),
                .init(label: CNLabelEmailiCloud, value: "john.appleseed@icloud.com"),
            ])
        #expect(
            john.phoneNumbers == [
                .init(label: CNLabelPhoneNumberMobile, value: "+1 (408) 555-0101"),
                .init(label: CNLabelPhoneNumberiPhone, value: "+1 408 555 0102"),
                .init(label: CNLabelPhoneNumberMobile, value: "(408) 555-0103"),
                .init(label: "Studio", value: "+44 20 7946 0958"),
                .init(label: CNLabelPhoneNumberHomeFax, value: "408-555-0104"),
                .init(label: CNLabelPhoneNumberMain, value: "408-555-0105"),
                .init(label: CNLabelPhoneNumberPager, value: "408-555-0106"),
            ])
        let address = try #require(john.postalAddresses.first)
        #expect(address.label == CNLabelHome)
        #expect(address.street == "1 Infinite Loop\nBuilding 2")
        #expect(address.city == "Cupertino")
        #expect(address.state == "CA")
        #expect(address.postalCode == "95014")
        #expect(address.country == "United States")
        #expect(address.isoCountryCode == "us")
        #expect(john.urlAddresses == [.init(label: CNLabelURLAddressHomePage, value: "https://www.apple.com")])
        #expect(john.birthday == "--05-17")
        #expect(john.note == "Met at WWDC, booth 3; bring the demo.\nSecond line.")
        #expect(john.imageData == VCardFixtures.photoBytes)

        let company = result.contacts[1]
        #expect(company.organizationName == "Blue Bottle Coffee")
        #expect(company.givenName.isEmpty && company.familyName.isEmpty)
        #expect(company.phoneNumbers == [.init(label: CNLabelWork, value: "+1 510 555 0199")])
        #expect(company.birthday == "2010-08-01")
    }

    @Test("Unsupported properties are reported with their line and do not fail the card")
    func unknownPropertyReported() {
        let text = VCardFixtures.appleExport.replacingOccurrences(
            of: "X-SOCIALPROFILE;type=twitter:", with: "X-UNKNOWN:")
        let result = VCard.decode(text)
        #expect(result.contacts.count == 2)
        #expect(
            result.problems == [
                VCardProblem(line: 27, message: "property X-UNKNOWN is not supported and was ignored", skipped: false)
            ])
        #expect(result.problems.first?.description == "line 27: property X-UNKNOWN is not supported and was ignored")
    }

    @Test("Apple's X-SOCIALPROFILE;type=twitter is read as a Twitter social profile")
    func appleSocialProfile() throws {
        let result = VCard.decode(VCardFixtures.appleExport)
        #expect(result.problems.isEmpty)
        let profile = try #require(result.contacts.first?.socialProfiles.first)
        #expect(profile.service == "Twitter")
        #expect(profile.urlString == "https://twitter.com/johnappleseed")
    }

    @Test("A Google Contacts export: INTERNET types, escaped colons, empty and custom X-ABLabel")
    func googleExport() throws {
        let result = VCard.decode(VCardFixtures.crlf(VCardFixtures.googleExport))
        #expect(result.errors.isEmpty)
        #expect(result.warnings.map(\.line) == [15, 26])
        #expect(result.warnings.allSatisfy { $0.message.contains("CATEGORIES") })
        try #require(result.contacts.count == 2)
        let zoe = result.contacts[0]
        #expect(zoe.givenName == "Zoë")
        #expect(zoe.familyName == "Dupont")
        #expect(
            zoe.emailAddresses == [
                .init(label: CNLabelHome, value: "zoe.dupont@gmail.com"),
                .init(label: CNLabelWork, value: "zoe@dupont-conseil.fr"),
            ])
        #expect(
            zoe.phoneNumbers == [
                .init(label: CNLabelPhoneNumberMobile, value: "+33 6 12 34 56 78"),
                .init(label: CNLabelWork, value: "+33 1 23 45 67 89"),
            ])
        #expect(zoe.postalAddresses.first?.street == "12 Rue de la Paix")
        #expect(zoe.postalAddresses.first?.city == "Paris")
        #expect(zoe.postalAddresses.first?.country == "France")
        #expect(
            zoe.urlAddresses == [
                .init(label: nil, value: "https://dupont-conseil.fr"),
                .init(label: "Blog", value: "https://blog.dupont.fr"),
            ])
        #expect(zoe.birthday == "1988-11-03")
        #expect(zoe.organizationName == "Dupont Conseil")
        #expect(zoe.jobTitle == "Directrice")
        #expect(zoe.note == "Prefers email.")
        #expect(zoe.identifier.hasPrefix("vcard-"))
        #expect(result.contacts[1].organizationName == "Acme Plumbing")
        #expect(result.contacts[1].givenName == "")
    }

    @Test("A 2.1 card: quoted-printable with UTF-8 and ISO-8859-1, soft line breaks, bare parameters")
    func version21() throws {
        for text in [VCardFixtures.version21, VCardFixtures.crlf(VCardFixtures.version21)] {
            let result = VCard.decode(text)
            #expect(result.problems.isEmpty)
            let card = try #require(result.contacts.first)
            #expect(card.givenName == "Jürgen")
            #expect(card.familyName == "Müller")
            #expect(
                card.note
                    == "Café au lait — this note is longer than seventy-six characters, so it has soft line breaks."
                    + "\nSecond line: été.")
            #expect(
                card.phoneNumbers == [
                    .init(label: CNLabelPhoneNumberMobile, value: "+49 170 1234567"),
                    .init(label: CNLabelWork, value: "+49 30 1234567"),
                    .init(label: CNLabelPhoneNumberHomeFax, value: "+49 30 7654321"),
                ])
            #expect(card.emailAddresses == [.init(label: nil, value: "juergen@example.de")])
            #expect(card.postalAddresses.first?.street == "Straße 1")
            #expect(card.postalAddresses.first?.city == "Köln")
            #expect(card.postalAddresses.first?.label == CNLabelHome)
            #expect(card.imageData == VCardFixtures.photoBytes)
        }
    }

    @Test("A 4.0 card (RFC 6350): quoted TYPE lists, tel: URIs, PREF, folded ADR, unknown properties")
    func version40() throws {
        let result = VCard.decode(VCardFixtures.crlf(VCardFixtures.version40))
        #expect(result.errors.isEmpty)
        #expect(result.warnings.map(\.line) == [7, 8, 9, 16, 17, 19])
        try #require(result.contacts.count == 2)
        let simon = result.contacts[0]
        #expect(simon.dates == [.init(label: "_$!<Anniversary>!$_", value: "2009-08-08")])
        #expect(simon.givenName == "Simon")
        #expect(simon.familyName == "Perreault")
        #expect(simon.nameSuffix == "ing. jr, M.Sc.", "a list component reads as its values joined with \", \"")
        #expect(simon.birthday == "--02-03")
        #expect(simon.organizationName == "Viagenie")
        let address = try #require(simon.postalAddresses.first)
        #expect(address.label == CNLabelWork)
        #expect(address.street == "Suite D2-630\n2875 Laurier")
        #expect(address.city == "Quebec")
        #expect(address.state == "QC")
        #expect(address.postalCode == "G1V 2M2")
        #expect(address.country == "Canada")
        #expect(
            simon.phoneNumbers == [
                .init(label: CNLabelWork, value: "+1-418-656-9254;ext=102"),
                .init(label: CNLabelPhoneNumberMobile, value: "+1-418-262-6501"),
            ])
        #expect(simon.emailAddresses == [.init(label: CNLabelWork, value: "simon.perreault@viagenie.ca")])
        #expect(simon.urlAddresses == [.init(label: CNLabelHome, value: "http://nomis80.org")])

        let jane = result.contacts[1]
        #expect(jane.identifier == "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6")
        #expect(jane.phoneNumbers == [.init(label: CNLabelHome, value: "+1-555-555-5555;ext=5555")])
        #expect(jane.emailAddresses == [.init(label: nil, value: "jane_doe@example.com")])
        #expect(jane.birthday == "1953-10-15")
        #expect(jane.imageData == VCardFixtures.photoBytes)
    }

    @Test("Folded lines (space and tab) and every text escape are undone")
    func foldedAndEscaped() throws {
        let result = VCard.decode(VCardFixtures.crlf(VCardFixtures.foldedAndEscaped))
        #expect(result.problems.isEmpty)
        let card = try #require(result.contacts.first)
        #expect(card.identifier == "escaped-1")
        #expect(card.familyName == "O'Brien, Esq.")
        #expect(card.givenName == "Seán")
        #expect(
            card.note
                == "Line one\nLine two, with a comma; a semicolon, a backslash \\ and an upper-case escape\n"
                + "Third line, folded with a space and then with a tab.")
        #expect(card.organizationName == "Smith; Wesson, Ltd")
        #expect(card.departmentName == "Research \\ Development")
        #expect(card.jobTitle == "Directeur général de la société européenne d'électricité et de gaz naturel")
    }

    @Test("A fold between a letter and its combining mark, or before an emoji, is joined back exactly")
    func foldBetweenScalars() throws {
        // "e" + combining acute split across the fold, and an emoji right after the fold.
        let text = "BEGIN:VCARD\r\nVERSION:4.0\r\nN:Caf\u{65}\r\n \u{301};Zo\r\n \u{1F600}x;;;\r\nEND:VCARD\r\n"
        let card = try #require(VCard.decode(text).contacts.first)
        #expect(card.familyName.unicodeScalars.elementsEqual("Cafe\u{301}".unicodeScalars))
        #expect(card.givenName == "Zo\u{1F600}x")
    }

    // MARK: Parameters and labels

    @Test("Parameter forms: repeated TYPE, comma lists, quoted lists, bare 2.1 names, case-insensitive")
    func parameterForms() throws {
        let text = """
            begin:vcard
            version:3.0
            n:Doe;Jane;;;
            tel;type=home;type=pref:1
            TEL;TYPE=WORK,FAX:2
            Tel;Type="home,fax":3
            TEL;CELL;PREF:4
            TEL;PREF=1;TYPE=other:5
            TEL;TYPE=voice:6
            TEL:7
            email;type=internet,work:a@b.c
            EMAIL;TYPE=x400;TYPE=OTHER:d@e.f
            url;type=homepage:https://x.y
            end:vcard
            """
        let result = VCard.decode(text)
        #expect(result.problems.isEmpty)
        let card = try #require(result.contacts.first)
        #expect(
            card.phoneNumbers.map(\.label) == [
                CNLabelHome, CNLabelPhoneNumberWorkFax, CNLabelPhoneNumberHomeFax, CNLabelPhoneNumberMobile,
                CNLabelOther, nil, nil,
            ])
        #expect(card.phoneNumbers.map(\.value) == ["1", "2", "3", "4", "5", "6", "7"])
        #expect(card.emailAddresses.map(\.label) == [CNLabelWork, CNLabelOther])
        #expect(card.urlAddresses.map(\.label) == [CNLabelURLAddressHomePage])
    }

    @Test("X-ABLabel applies only to its own group and wins over TYPE")
    func groupedLabels() throws {
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            N:Doe;Jane;;;
            item1.TEL;type=HOME:111
            item1.X-ABLabel:_$!<Mobile>!$_
            item2.TEL:222
            ITEM2.X-ABLABEL:Ferienhaus\\, oben
            item3.EMAIL:x@y.z
            TEL:333
            END:VCARD
            """
        let card = try #require(VCard.decode(text).contacts.first)
        #expect(
            card.phoneNumbers == [
                .init(label: CNLabelPhoneNumberMobile, value: "111"),
                .init(label: "Ferienhaus, oben", value: "222"),
                .init(label: nil, value: "333"),
            ])
        #expect(card.emailAddresses == [.init(label: nil, value: "x@y.z")])
    }

    // MARK: Birthdays and photos

    @Test(
        "BDAY forms, with and without year and time",
        arguments: [
            ("BDAY:1990-05-17", "1990-05-17"),
            ("BDAY:19900517", "1990-05-17"),
            ("BDAY:--0517", "--05-17"),
            ("BDAY:--05-17", "--05-17"),
            ("BDAY:1990-05-17T00:00:00Z", "1990-05-17"),
            ("BDAY:19900517T120000", "1990-05-17"),
            ("BDAY;VALUE=date:1990-05-17", "1990-05-17"),
            ("BDAY;X-APPLE-OMIT-YEAR=1604:1604-05-17", "--05-17"),
            ("BDAY:1604-05-17", "1604-05-17"),
        ])
    func birthdays(line: String, expected: String) throws {
        let card = try #require(VCard.decode("BEGIN:VCARD\nVERSION:3.0\nN:A;B;;;\n\(line)\nEND:VCARD\n").contacts.first)
        #expect(card.birthday == expected)
    }

    @Test("A BDAY that is a valid vCard date without month and day is ignored with a warning, not fatal")
    func partialBirthday() throws {
        for value in ["BDAY:1990", "BDAY:---17", "BDAY;VALUE=text:circa 1800"] {
            let result = VCard.decode("BEGIN:VCARD\nVERSION:4.0\nN:A;B;;;\n\(value)\nEND:VCARD\n")
            #expect(result.contacts.count == 1)
            #expect(result.contacts.first?.birthday == nil)
            #expect(result.problems.map(\.line) == [4])
            #expect(result.problems.first?.skipped == false)
        }
    }

    @Test("PHOTO as a URL is not downloaded and is reported")
    func photoURL() throws {
        let result = VCard.decode(
            "BEGIN:VCARD\nVERSION:3.0\nN:A;B;;;\nPHOTO;VALUE=uri:https://example.com/a.jpg\nEND:VCARD\n")
        #expect(result.contacts.first?.imageData == nil)
        #expect(result.warnings.map(\.line) == [4])
    }

    // MARK: Identifiers and names

    @Test("UID becomes the identifier; cards without one get stable generated identifiers")
    func identifiers() throws {
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            UID:urn:uuid:AAAA-1
            N:A;B;;;
            END:VCARD
            BEGIN:VCARD
            VERSION:3.0
            N:C;D;;;
            END:VCARD
            BEGIN:VCARD
            VERSION:3.0
            N:C;D;;;
            END:VCARD
            """
        let first = VCard.decode(text)
        let again = VCard.decode(text)
        #expect(first.contacts.map(\.identifier) == again.contacts.map(\.identifier))
        #expect(first.contacts[0].identifier == "urn:uuid:AAAA-1")
        #expect(first.contacts[1].identifier.hasPrefix("vcard-"))
        #expect(first.contacts[1].identifier != first.contacts[2].identifier)
    }

    @Test("FN alone fills the name: split at the last space, or the organization for KIND:org")
    func formattedNameOnly() throws {
        let text = """
            BEGIN:VCARD
            VERSION:4.0
            FN:Mary Ann Smith
            END:VCARD
            BEGIN:VCARD
            VERSION:4.0
            KIND:org
            FN:Acme Corp
            END:VCARD
            """
        let contacts = VCard.decode(text).contacts
        #expect(contacts.count == 2)
        #expect(contacts.first?.givenName == "Mary Ann")
        #expect(contacts.first?.familyName == "Smith")
        #expect(contacts.last?.organizationName == "Acme Corp")
        #expect(contacts.last?.givenName == "")
    }

    @Test("File bytes: UTF-8 with a BOM and Windows-1252 files both decode")
    func fileData() throws {
        let utf8 =
            Data([0xEF, 0xBB, 0xBF]) + Data("BEGIN:VCARD\r\nVERSION:3.0\r\nN:Dupont;Zoë;;;\r\nEND:VCARD\r\n".utf8)
        #expect(VCard.decode(data: utf8).contacts.first?.givenName == "Zoë")
        var latin = Data("BEGIN:VCARD\r\nVERSION:2.1\r\nN:Dupont;Zo".utf8)
        latin.append(0xEB)
        latin.append(contentsOf: Data(";;;\r\nEND:VCARD\r\n".utf8))
        #expect(VCard.decode(data: latin).contacts.first?.givenName == "Zoë")
    }

    // MARK: Malformed input

    @Test("A line without a colon in card 2 of 3 costs only that line, reported at line 9")
    func secondOfThreeMalformed() {
        let result = VCard.decode(VCardFixtures.crlf(VCardFixtures.secondOfThreeMalformed))
        #expect(result.contacts.map(\.familyName) == ["One", "Two", "Three"])
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.line == 9)
        #expect(result.problems.first?.skipped == false)
        #expect(result.problems.first?.message.contains("without a colon") == true)
        #expect(result.stoppedEarly == false)
        #expect(VCard.decode(VCardFixtures.secondOfThreeMalformed, stopOnError: true).stoppedEarly == false)
    }

    @Test("stopOnError stops at the first bad card and keeps the cards before it")
    func stopOnError() {
        let result = VCard.decode(VCardFixtures.missingEnds, stopOnError: true)
        #expect(result.contacts.map(\.familyName) == ["One"])
        #expect(result.problems.map(\.line) == [5])
        #expect(result.stoppedEarly)

        let clean = VCard.decode(VCardFixtures.appleExport, stopOnError: true)
        #expect(clean.contacts.count == 2)
        #expect(clean.stoppedEarly == false)
        #expect(clean.warnings.isEmpty)
    }

    @Test("BEGIN without END, END without BEGIN and a card cut off at the end are reported")
    func missingEnds() {
        let result = VCard.decode(VCardFixtures.missingEnds)
        #expect(result.contacts.map(\.familyName) == ["One", "Three"])
        #expect(result.problems.map(\.line) == [5, 12, 13])
        #expect(result.problems.allSatisfy { $0.skipped })
        #expect(result.problems[1].message.contains("END:VCARD without"))

        let stopped = VCard.decode(VCardFixtures.missingEnds, stopOnError: true)
        #expect(stopped.contacts.map(\.familyName) == ["One"])
        #expect(stopped.stoppedEarly)
    }

    @Test("Bad base64 in PHOTO and an unparseable BDAY cost only that value; every card imports")
    func badValues() {
        let result = VCard.decode(VCardFixtures.badValues)
        #expect(result.contacts.map(\.familyName) == ["One", "Two", "Three"])
        #expect(result.contacts.map(\.imageData) == [nil, nil, nil])
        #expect(result.contacts.map(\.birthday) == [nil, nil, nil])
        #expect(result.problems.map(\.line) == [4, 9])
        #expect(result.problems.allSatisfy { !$0.skipped })
        #expect(result.problems[0].message.contains("PHOTO"))
        #expect(result.problems[1].message.contains("BDAY"))
    }

    @Test("Text outside cards is reported once per run; empty input gives nothing")
    func strayText() {
        let result = VCard.decode("garbage\nmore garbage\nBEGIN:VCARD\nN:A;B;;;\nEND:VCARD\n\ntrailing\n")
        #expect(result.contacts.count == 1)
        #expect(result.problems.map(\.line) == [1, 7])
        #expect(VCard.decode("") == VCardDecodeResult())
        #expect(VCard.decode("\r\n\r\n") == VCardDecodeResult())
    }
}
