import AppGroupStore
import ContactProviderTesting
import ContactsHostKit
import ContactsInterop
import Foundation
import TestSupport
import Testing

/// Hostile import files: JSON (`ContactImport.decode`) and vCard (`VCard.decode(data:)`).
@Suite("Reliability: import format fuzzing")
struct ReliabilityImportFuzzTests {
    static func contacts(_ count: Int) -> [ContactRecord] {
        var random = SeededRandom(seed: 3)
        return (0..<count).map { ReliabilityStoreFuzzTests.contact($0, &random) }
    }

    /// Valid JSON import files of the three accepted shapes.
    static let jsonCorpus: [[UInt8]] = {
        let records = contacts(12)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let document = try! encoder.encode(ContactJSON.ExportDocument(contacts: records))
        let array = try! encoder.encode(records)
        let seed = #"""
            [{"identifier":"1","firstName":"John","lastName":"Appleseed","phoneNumber":"+1 408 555 0101"},
             {"identifier":"2","firstName":"Jane","lastName":"Doe","emailAddress":"jane@example.com"}]
            """#
        return [Array(document), Array(array), Array(seed.utf8), Array("[]".utf8)]
    }()

    static let wrongValues = ["null", "1", "\"x\"", "[]", "{}", "true", "1e400", "-0", "\"\\ud800\"", "[[[[[[]]]]]]"]

    static func hostileJSON(_ random: inout SeededRandom) -> [UInt8] {
        var data = random.pick(jsonCorpus)
        switch random.int(0..<9) {
        case 0: return random.bytes(random.int(0...400))
        case 1: return Array(data.prefix(random.int(0..<data.count)))
        case 2: ReliabilityMutation.flip(&data, count: random.int(1...6), &random)
        case 3: ReliabilityMutation.insertBadUTF8(&data, &random)
        case 4:
            // A value of the wrong type after a random key.
            let colons = data.indices.filter { data[$0] == 0x3A }
            guard let colon = colons.isEmpty ? nil : random.pick(colons) else { return data }
            var end = colon + 1
            while end < data.count, ![0x2C, 0x7D, 0x5D, 0x0A].contains(data[end]) { end += 1 }
            data.replaceSubrange((colon + 1)..<end, with: Array(random.pick(wrongValues).utf8))
        case 5: return Array("[".utf8) + ReliabilityMutation.deepNesting(random.int(100...20_000)) + Array("]".utf8)
        case 6:
            // Huge: one contact with a megabyte-long name.
            let name = String(repeating: random.pick(["a", "é", "\\n"]), count: random.int(1000...(1 << 19)))
            return Array(#"[{"identifier":"big","givenName":"\#(name)"}]"#.utf8)
        case 7:
            return Array(
                random.pick([
                    "", " \n\t", "{", "[", "\"", "{\"format\":1}",
                    "{\"format\":2,\"kind\":\"contacts\",\"contacts\":[]}", "\u{FEFF}[]",
                ]).utf8)
        default: break
        }
        return data
    }

    @Test(
        "ContactImport.decode on random, truncated, flipped, non-UTF-8, wrongly typed, deep and huge JSON: contacts or an error naming the source"
    )
    func jsonImportFuzz() throws {
        let seed = TestScale.seed
        var decoded = 0
        var rejected = 0
        let result = ReliabilityFuzzBudget(cases: 3000, seconds: 2).run { index in
            var random = SeededRandom.forCase(index, seed: seed)
            let data = Data(Self.hostileJSON(&random))
            let source = "fuzz-\(index).json"
            _ = ContactImport.isVCard(data, path: source)
            do {
                let records = try ContactImport.decode(data, source: source)
                decoded += 1
                // What was accepted is well-formed enough to encode again.
                #expect((try? JSONEncoder().encode(records)) != nil, "seed \(seed) case \(index)")
            } catch let error as ContactImport.ImportError {
                rejected += 1
                #expect(error.description.hasPrefix(source + ":"), "seed \(seed) case \(index): \(error.description)")
                #expect(
                    !error.description.contains("\n"), "seed \(seed) case \(index): not one line: \(error.description)")
            } catch {
                Issue.record("seed \(seed) case \(index): threw \(type(of: error)) instead of ImportError: \(error)")
            }
        }
        #expect(result.cases > 0)
        #expect(decoded > 0 && rejected > 0)
        print(
            "fuzz: \(result.cases) JSON import files (\(decoded) decoded, \(rejected) rejected naming the source), 0 crashes, seed \(seed), \(String(format: "%.2f", result.seconds)) s"
        )
    }

    static let vcardCorpus: [[UInt8]] = {
        let records = contacts(8)
        return [
            Array(VCard.encode(records, version: .v3).utf8), Array(VCard.encode(records, version: .v4).utf8),
            Array(
                "BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C3=A9t=\r\n=C3=A9;Jo\r\nTEL;CELL:+1 555\r\nEND:VCARD\r\n"
                    .utf8),
        ]
    }()

    static func hostileVCard(_ random: inout SeededRandom) -> (data: [UInt8], truncatedFrom: Int?) {
        var data = random.pick(vcardCorpus)
        switch random.int(0..<8) {
        case 0: return (random.bytes(random.int(0...400)), nil)
        case 1: return (Array(data.prefix(random.int(0..<data.count))), 8)
        case 2: ReliabilityMutation.flip(&data, count: random.int(1...8), &random)
        case 3: ReliabilityMutation.insertBadUTF8(&data, &random)
        case 4:
            let junk = random.pick([
                "BEGIN:VCARD\r\n", "END:VCARD\r\n", "PHOTO;ENCODING=b:!!!\r\n", "BDAY:2020-13-40\r\n",
                "no colon here\r\n", " folded continuation\r\n", "N:;;;;;;;;;;;;;\r\n", "=\r\n", "\u{FEFF}", "\r", "\0",
            ])
            data.insert(contentsOf: Array(junk.utf8), at: random.int(0...data.count))
        case 5: data = Array("\u{FEFF}".utf8) + data
        case 6: return ([0xFE, 0xFF] + random.bytes(random.int(0...200)), nil)  // "UTF-16" with junk
        default: break
        }
        return (data, nil)
    }

    @Test(
        "VCard.decode(data:) on random, truncated, flipped, non-UTF-8 and junk-injected files: never crashes, consistent results"
    )
    func vcardImportFuzz() throws {
        let seed = TestScale.seed
        var contactsDecoded = 0
        var problems = 0
        let result = ReliabilityFuzzBudget(cases: 1500, seconds: 2).run { index in
            var random = SeededRandom.forCase(index, seed: seed)
            let (bytes, truncatedFrom) = Self.hostileVCard(&random)
            let data = Data(bytes)
            let context = "seed \(seed) case \(index)"
            let lenient = VCard.decode(data: data)
            let strict = VCard.decode(data: data, stopOnError: true)
            contactsDecoded += lenient.contacts.count
            problems += lenient.problems.count
            let physicalLines = bytes.filter { $0 == 0x0A || $0 == 0x0D }.count + 1
            for problem in lenient.problems {
                #expect(problem.line >= 1 && problem.line <= physicalLines, "\(context): \(problem)")
            }
            if let truncatedFrom { #expect(lenient.contacts.count <= truncatedFrom, "\(context)") }
            #expect(!lenient.stoppedEarly, "\(context)")
            // Stopping at the first skipped card gives a prefix of the lenient result.
            #expect(Array(lenient.contacts.prefix(strict.contacts.count)) == strict.contacts, "\(context)")
            if strict.stoppedEarly { #expect(strict.problems.last?.skipped == true, "\(context)") }
            #expect(strict.stoppedEarly || strict.contacts == lenient.contacts, "\(context)")
            // Whatever was decoded writes and reads back as as many cards.
            let again = VCard.decode(VCard.encode(lenient.contacts, version: .v4))
            #expect(again.contacts.count == lenient.contacts.count, "\(context): re-encoding lost cards")
        }
        #expect(result.cases > 0)
        print(
            "fuzz: \(result.cases) vCard files (\(contactsDecoded) contacts, \(problems) problems reported), 0 crashes, seed \(seed), \(String(format: "%.2f", result.seconds)) s"
        )
    }
}
