import Contacts
import Foundation
import Testing

/// `CNContactVCardSerialization`: Apple's signatures over the project's vCard codec.
@Suite("Porting: CNContactVCardSerialization")
struct VCardSerializationTests {
    private func sampleContact() -> CNMutableContact {
        let contact = CNMutableContact()
        contact.givenName = "Ada"
        contact.familyName = "Lovelace"
        contact.organizationName = "Analytical Engines"
        contact.phoneNumbers = [
            CNLabeledValue(label: CNLabelPhoneNumberMobile, value: CNPhoneNumber(stringValue: "+44 20 7946 0000")),
            CNLabeledValue(label: "Lab", value: CNPhoneNumber(stringValue: "+44 20 7946 0001")),
        ]
        contact.emailAddresses = [CNLabeledValue(label: CNLabelWork, value: "ada@example.com" as NSString)]
        contact.birthday = DateComponents(month: 12, day: 10)
        contact.note = "First programmer;\nnote, with escapes"
        return contact
    }

    @Test("data(with:) then contacts(with:) gives the same contact, identifier included")
    func roundTrip() throws {
        let contact = sampleContact()
        let data = try CNContactVCardSerialization.data(with: [contact])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\n"))
        // Contacts' label constants and the codec's TYPE mapping agree.
        #expect(text.contains("TEL;TYPE=CELL:+44 20 7946 0000"))
        #expect(text.contains("EMAIL;TYPE=INTERNET,WORK:ada@example.com"))
        let decoded = try CNContactVCardSerialization.contacts(with: data)
        #expect(decoded.count == 1)
        #expect(decoded.first?.identifier == contact.identifier)
        #expect(decoded.first.map { $0.mutableCopy() as! CNMutableContact } == contact)
        #expect(decoded.first is CNMutableContact == false, "contacts(with:) returns immutable contacts")
    }

    @Test("a malformed card throws CNError.vCardMalformed naming the line; no card at all is no contacts")
    func errors() throws {
        let broken = Data(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bob\r\nEND:VCARD\r\n".utf8)
        do {
            _ = try CNContactVCardSerialization.contacts(with: broken)
            Issue.record("a card with no END:VCARD must not be dropped silently")
        } catch let error as CNError {
            #expect(error.code == .vCardMalformed)
            #expect(error.errorCode == 700)
            #expect((error as NSError).domain == CNErrorDomain)
            #expect(error.localizedDescription.contains("line 1"))
        }
        do {
            _ = try CNContactVCardSerialization.contacts(with: broken)
        } catch CNError.vCardMalformed {
            // `catch CNError.code` matches, as on Apple platforms.
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(try CNContactVCardSerialization.contacts(with: Data()).isEmpty)
        #expect(try CNContactVCardSerialization.contacts(with: Data("\r\n\r\n".utf8)).isEmpty)
    }

    @Test("every CNContact key is available; unknown keys are not; descriptorForRequiredKeys names them all")
    func keys() {
        let contact = sampleContact()
        #expect(contact.isKeyAvailable(CNContactGivenNameKey))
        #expect(contact.isKeyAvailable(CNContactRelationsKey))
        #expect(!contact.isKeyAvailable("favouriteColour"))
        #expect(
            contact.areKeysAvailable([
                CNContactGivenNameKey as CNKeyDescriptor, CNContactVCardSerialization.descriptorForRequiredKeys(),
            ]))
        #expect(!contact.areKeysAvailable(["favouriteColour" as CNKeyDescriptor]))
        #expect(CNContactGivenNameKey == "givenName" && CNContactRelationsKey == "contactRelations")
    }

    @Test("CNContact is Identifiable: a stable id from the identifier")
    func identifiable() {
        let contact = CNMutableContact()
        #expect(contact.id.uuidString == contact.identifier)
        let imported = CNContact(identifier: "crm-42")
        #expect(imported.id == CNContact(identifier: "crm-42").id)
        #expect(imported.id != CNContact(identifier: "crm-43").id)
    }
}
