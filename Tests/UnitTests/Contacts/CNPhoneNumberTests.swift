import Contacts
import Foundation
import Testing

@Suite("CNPhoneNumber")
struct CNPhoneNumberTests {
    @Test("stringValue is kept exactly as given")
    func stringValueKept() {
        #expect(CNPhoneNumber(stringValue: "+1 (408) 555-0100").stringValue == "+1 (408) 555-0100")
        #expect(CNPhoneNumber(stringValue: "").stringValue == "")
    }

    @Test("Phone numbers with the same text are equal and hash alike")
    func equalNumbers() {
        let first = CNPhoneNumber(stringValue: "555-0100")
        let second = CNPhoneNumber(stringValue: "555-0100")
        #expect(first !== second)
        #expect(first == second)
        #expect(first.isEqual(second))
        #expect(first.hash == second.hash)
        #expect(Set([first, second]).count == 1)
    }

    @Test("Phone numbers with different text are not equal, even if only formatting differs")
    func differentNumbers() {
        #expect(CNPhoneNumber(stringValue: "555-0100") != CNPhoneNumber(stringValue: "555-0101"))
        #expect(CNPhoneNumber(stringValue: "5550100") != CNPhoneNumber(stringValue: "555-0100"))
        #expect(!CNPhoneNumber(stringValue: "555").isEqual("555" as NSString))
    }

    @Test("copy() is an equal phone number")
    func copying() throws {
        let number = CNPhoneNumber(stringValue: "555")
        let copy = try #require(number.copy() as? CNPhoneNumber)
        #expect(copy == number)
    }
}
