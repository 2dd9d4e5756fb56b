import AppGroupStore
import ContactsHostKit
import Foundation
import Testing

@Suite("ContactImport: export documents, arrays, the seed format and malformed input")
struct ContactImportTests {
    /// The import error's message, or nil when decoding succeeded.
    private func failure(_ text: String, source: String = "contacts.json") -> String? {
        do {
            _ = try ContactImport.decode(Data(text.utf8), source: source)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("An export document round-trips every field")
    func exportDocument() throws {
        let records = [StoreFixtures.fullContact("a"), StoreFixtures.contact("b")]
        let text = try ContactJSON.document(ContactJSON.ExportDocument(contacts: records))
        #expect(try ContactImport.decode(Data(text.utf8), source: "export.json") == records)
        let compact = try ContactJSON.report(ContactJSON.ExportDocument(contacts: records))
        #expect(try ContactImport.decode(Data(compact.utf8), source: "export.json") == records)
    }

    @Test("An export document of another format version is refused")
    func exportDocumentVersion() {
        let message = failure(#"{"format":2,"kind":"contacts","contacts":[]}"#, source: "v2.json")
        #expect(message?.contains("v2.json") == true)
        #expect(message?.contains("unsupported format version 2") == true)
    }

    @Test("A plain array of contacts (list --json) is accepted")
    func plainArray() throws {
        let records = [StoreFixtures.contact("x", phone: "1"), StoreFixtures.fullContact("y")]
        let text = try ContactJSON.report(records)
        #expect(try ContactImport.decode(Data(("\n  " + text).utf8), source: "list.json") == records)
        #expect(try ContactImport.decode(Data("[]".utf8), source: "empty.json").isEmpty)
    }

    @Test("The seed demo's ContactItems.json format is converted to Contacts fields")
    func seedFormat() throws {
        let text = """
            [
              {"identifier": "seed-1", "firstName": "Ada", "lastName": "Lovelace", "phoneNumber": "+44 20 0000", "emailAddress": "ada@example.org"},
              {"identifier": "seed-2", "firstName": "Alan", "lastName": "Turing"}
            ]
            """
        let records = try ContactImport.decode(Data(text.utf8), source: "ContactItems.json")
        #expect(records.map(\.identifier) == ["seed-1", "seed-2"])
        #expect(records[0].givenName == "Ada")
        #expect(records[0].familyName == "Lovelace")
        #expect(records[0].phoneNumbers == [.init(label: "_$!<Mobile>!$_", value: "+44 20 0000")])
        #expect(records[0].emailAddresses.map(\.value) == ["ada@example.org"])
        #expect(records[1].phoneNumbers.isEmpty)
        #expect(records[1].emailAddresses.isEmpty)
    }

    @Test("A wrong type in the third element of a pretty-printed array names the line where it starts")
    func wrongTypeLine() throws {
        let text = """
            [
              {
                "identifier": "one",
                "givenName": "One"
              },
              {
                "identifier": "two",
                "givenName": "Two"
              },
              {
                "identifier": "three",
                "givenName": 3
              }
            ]
            """
        let message = try #require(failure(text, source: "bad.json"))
        #expect(message.hasPrefix("bad.json: line 10: contact #3"), "\(message)")
        #expect(message.contains("givenName"))
    }

    @Test("A missing key in a seed record names the element's line")
    func seedMissingKey() throws {
        let text = """
            [
              {"identifier": "s1", "firstName": "A", "lastName": "B"},
              {"identifier": "s2", "firstName": "C"}
            ]
            """
        let message = try #require(failure(text, source: "seed.json"))
        #expect(message.hasPrefix("seed.json: line 3: contact #2"), "\(message)")
        #expect(message.contains("lastName"))
    }

    @Test("An element inside an export document is located too")
    func exportDocumentElementLine() throws {
        let text = """
            {
              "format": 1,
              "kind": "contacts",
              "contacts": [
                {"identifier": "ok", "phoneNumbers": [{"label": "x", "value": "1"}]},
                {"identifier": "bad", "birthday": "1990-02-30x"}
              ]
            }
            """
        let message = try #require(failure(text, source: "doc.json"))
        #expect(message.hasPrefix("doc.json: line 6: contact #2"), "\(message)")
        #expect(message.contains("birthday"))
    }

    @Test("An element that is not an object is located")
    func nonObjectElement() throws {
        let text = "[\n  {\"identifier\": \"a\"},\n  42\n]"
        let message = try #require(failure(text, source: "mixed.json"))
        #expect(message.hasPrefix("mixed.json: line 3: contact #2"), "\(message)")
    }

    @Test("A syntax error reports the line and column where parsing stopped")
    func syntaxError() throws {
        let text = "[\n {\"identifier\": \"x\",\n  \"givenName\": oops}\n]\n"
        let message = try #require(failure(text, source: "syntax.json"))
        #expect(message.hasPrefix("syntax.json: line 3, column 16"), "\(message)")
    }

    @Test("A truncated file reports its last line")
    func truncated() throws {
        let message = try #require(failure("[\n  {\"identifier\": \"x\"", source: "cut.json"))
        #expect(message.hasPrefix("cut.json: line 2"), "\(message)")
    }

    @Test("Empty input and non-JSON input are refused with the source named")
    func emptyAndScalar() {
        #expect(failure("", source: "<stdin>") == "<stdin>: the file is empty")
        #expect(failure("  \n\t", source: "blank.json") == "blank.json: the file is empty")
        #expect(failure("42", source: "n.json") == "n.json:1: expected a JSON array or object of contacts")
    }
}
