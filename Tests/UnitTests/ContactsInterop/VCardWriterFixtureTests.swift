import AppGroupStore
import ContactsHostKit
import ContactsInterop
import Foundation
import Testing

/// Issue 14: what real phones, mail clients and servers write imports here as other readers import
/// it, problems cost only the bad line or value (reported with its line), and what the exporter
/// writes reads back the same.
@Suite("vCard: real writers' cards (issue 14)")
struct InteropVCardWriterFixtureTests {
    static func unfolded(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    @Test(
        "Each fixture imports as its expected JSON, warns at its lines and drops no card",
        arguments: VCardWriterFixtures.all)
    func fixture(_ fixture: VCardWriterFixture) throws {
        try Self.verify(fixture, readsBackEqual: fixture.defect != 11)
    }

    /// Imports the fixture and compares every field with its expected JSON, checks its warnings,
    /// exports it as 3.0 and 4.0, checks the expected lines and reads each export back.
    static func verify(_ fixture: VCardWriterFixture, readsBackEqual: Bool = true) throws {
        let expected = try JSONDecoder().decode([ContactRecord].self, from: Data(fixture.expectedJSON.utf8))
        let result = VCard.decode(data: fixture.bytes)
        #expect(result.contacts == expected)
        #expect(result.errors.isEmpty, "no card may be dropped: \(result.errors)")
        #expect(result.warnings.map(\.line) == fixture.warningLines, "\(result.warnings)")
        for (warning, text) in zip(result.warnings, fixture.warningTexts) {
            #expect(warning.message.contains(text), "\(warning) should say \(text)")
        }
        for (version, lines) in [(VCardVersion.v3, fixture.exported3), (.v4, fixture.exported4)] {
            let exported = VCard.encode(result.contacts, version: version)
            let written = Self.unfolded(exported)
            for line in lines {
                #expect(written.contains(line), "\(version.rawValue) export lacks \(line):\n\(exported)")
            }
            // What was exported reads back the same (control characters excepted: they are not written).
            let again = VCard.decode(exported)
            #expect(again.problems.isEmpty, "\(again.problems)")
            if readsBackEqual { #expect(again.contacts == result.contacts) }
        }
    }

    @Test("The fixtures reproduce the defects: every one of 1–13 has a fixture")
    func everyDefectHasAFixture() {
        #expect(Set(VCardWriterFixtures.all.map(\.defect)) == Set(1...13))
    }

    @Test("A CHARSET Foundation cannot convert here is reported as such, never as read in that charset")
    func unconvertibleCharset() {
        // EUC-JP: CoreFoundation knows the name, but swift-corelibs-foundation on Linux has no converter.
        let bytes = VCardWriterFixture.file([
            "BEGIN:VCARD", "VERSION:2.1", "N;CHARSET=EUC-JP;ENCODING=QUOTED-PRINTABLE:=C6=FC;=CB=DC", "UID:eucjp",
            "END:VCARD",
        ])
        let result = VCard.decode(data: bytes)
        #expect(result.contacts.count == 1)
        if String(data: Data([0xC6, 0xFC, 0xCB, 0xDC]), encoding: .japaneseEUC) == "日本" {
            #expect(result.contacts.first?.familyName == "日")
            #expect(result.problems.isEmpty)
        } else {
            #expect(result.contacts.first?.familyName == "Æü")
            #expect(result.warnings.map(\.line) == [3])
            #expect(
                result.warnings.first?.message.contains("EUC-JP cannot be converted here; read as Windows-1252") == true
            )
        }
        let unknown = VCard.decode("BEGIN:VCARD\nN;CHARSET=X-NO-SUCH;ENCODING=QUOTED-PRINTABLE:=41;B\nEND:VCARD\n")
        #expect(unknown.contacts.first?.familyName == "A")
        #expect(unknown.warnings.first?.message.contains("X-NO-SUCH cannot be converted here; read as UTF-8") == true)
    }

    @Test("\\r\\r\\n, \\r\\n, \\n and lone \\r line ends all unfold the same text")
    func lineEndings() {
        let lines = ["BEGIN:VCARD", "VERSION:3.0", "N:A;B;;;", "NOTE:fol", " ded", "UID:x", "END:VCARD"]
        let decoded = ["\r\r\n", "\r\n", "\n", "\r"].map { ending in
            VCard.decode(lines.joined(separator: ending) + ending)
        }
        for result in decoded {
            #expect(result.problems.isEmpty)
            #expect(result.contacts.first?.note == "folded")
        }
    }

    @Test("A nested AGENT written as AGENT:BEGIN:VCARD on its own line is passed over too")
    func inlineAgent() {
        let text =
            "BEGIN:VCARD\nVERSION:2.1\nN:Boss;Big\nAGENT:BEGIN:VCARD\nN:Friday;Girl\nEND:VCARD\nUID:o\nEND:VCARD\n"
        let result = VCard.decode(text)
        #expect(result.contacts.map(\.familyName) == ["Boss"])
        #expect(result.warnings.map(\.line) == [4])
    }

    @Test("Re-importing an export of a urn:uuid: contact updates it instead of adding a copy")
    func urnUUIDIdentifierRoundTrip() {
        let record = ContactRecord(identifier: "urn:uuid:6f9619ff-8b86-d011-b42d-00c04fc964ff")
        for version in VCardVersion.allCases {
            #expect(
                VCard.decode(VCard.encode([record], version: version)).contacts.map(\.identifier) == [record.identifier]
            )
        }
    }

    @Test("Department text that would not read back as units is written as one escaped unit")
    func departmentWithEmptyUnit() {
        var record = ContactRecord(identifier: "d")
        record.organizationName = "Acme"
        for department in ["Sales, ", ", Sales", "a, , b", "Sales,EMEA", "Sales, EMEA"] {
            record.departmentName = department
            #expect(VCard.decode(VCard.encode([record])).contacts == [record], "\(department)")
        }
    }

    @Test("--phone \"Label With Space=NUMBER\" stores the label and the number apart")
    func phoneLabelWithSpace() {
        let phone = Labels.labeled("Label With Space=+1 555 0100", defaultLabel: "_$!<Mobile>!$_")
        #expect(phone == .init(label: "Label With Space", value: "+1 555 0100"))
        #expect(Labels.labeled("work=+1 555", defaultLabel: "x") == .init(label: "_$!<Work>!$_", value: "+1 555"))
        #expect(Labels.labeled("+1 555 0100", defaultLabel: "x") == .init(label: "x", value: "+1 555 0100"))
        // A URL's query or an address is a value, not a label.
        #expect(Labels.labeled("https://x.example/?a=b", defaultLabel: "h").value == "https://x.example/?a=b")
        #expect(Labels.labeled("a b@x.example=c", defaultLabel: "h").value == "a b@x.example=c")
    }
}
