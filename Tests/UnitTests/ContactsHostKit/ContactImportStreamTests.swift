import AppGroupStore
import ContactProviderTesting
import ContactsHostKit
import Foundation
import TestSupport
import Testing

@Suite("ContactImportStream: the streamed JSON import reads what the whole-document import reads, or defers to it")
struct ContactImportStreamTests {
    private func streamed(_ text: String) throws -> [ContactRecord]? {
        guard let stream = try ContactImportStream.check(Data(text.utf8)) else { return nil }
        return try stream.elements.indices.map(stream.record(at:))
    }

    private func randomContact(_ random: inout SeededRandom, index: Int) -> ContactRecord {
        var record = StoreFixtures.fullContact("c-\(index)")
        if random.chance(0.3) { record.note = "" }
        if random.chance(0.3) { record.givenName = "Zoë \u{1F600} \\ \"q\" \(random.below(1000))" }
        if random.chance(0.2) { record.identifier = "" }
        if random.chance(0.3) { record.phoneNumbers = [] }
        return record
    }

    @Test(
        "Arrays and export documents, compact or pretty, with a BOM or not: the same contacts (seeded)",
        arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func agreesWithWholeDocument(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let records = (0..<random.int(0...30)).map { randomContact(&random, index: $0) }
        let encoder = JSONEncoder()
        if random.chance(0.5) { encoder.outputFormatting = [.prettyPrinted, .sortedKeys] }
        var text: String
        if random.chance(0.5) {
            text = String(decoding: try encoder.encode(records), as: UTF8.self)
        } else {
            text =
                #"{"kind":"contacts","contacts":"# + String(decoding: try encoder.encode(records), as: UTF8.self)
                + #" , "extra": {"a":[1,"]"]}, "format":1}"#
        }
        if random.chance(0.3) { text = "\u{FEFF}" + text }
        let expected = try ContactImport.decode(Data(text.utf8), source: "f.json")
        let got = try #require(try streamed(text), "seed \(seed): \(text.prefix(200))")
        #expect(got == expected, "seed \(seed)")
        #expect(got == records, "seed \(seed)")
    }

    @Test(
        "Syntax errors, repeated keys, wrong types and other shapes defer to the whole-document path")
    func defers() throws {
        let deferred = [
            #"[{"identifier":"a","firstName":"A","firstName":"B","lastName":"B"}]"#,
            #"[{"identifier":"a","firstName":"A","lastName":null}]"#,
            #"[{"identifier":"a","firstName":"A"}]"#,
            #"[{"identifier":"a","firstName":"A","lastName":"B","x":1,"x":2}]"#,
            #"[{"identifier":"a","firstName":"A","lastName":"B"},{"identifier":"b","givenName":"C"}]"#,
            #"[{"identifier":"a","givenName":"A"},]"#,
            #"[{"identifier":"a","givenName":"A","givenName":"B"}]"#,
            #"[{"identifier":"a","givenName":7}]"#,
            #"[{"identifier":"a"} {"identifier":"b"}]"#,
            #"[{"identifier":"a"}] x"#,
            #"["a"]"#,
            #"{"format":2,"kind":"contacts","contacts":[]}"#,
            #"{"format":1,"contacts":[]}"#,
            #"{"format":1,"kind":"contacts","contacts":[],"contacts":[]}"#,
            "",
            "  ",
            #"[{"identifier":"a","givenName":"A""#,
        ]
        for text in deferred {
            #expect(try streamed(text) == nil, "\(text)")
        }
    }

    /// A name written with every kind of JSON escape (a \u escape, quotes, a backslash, a surrogate pair).
    private static let escapedName = #"Zo\u00EB \"q\" \\ \ud83d\ude00"#

    @Test(
        "The seed demo's ContactItems.json streams: the same contacts as the whole-document import, also with escapes, nulls, other keys and a BOM (seeded)",
        arguments: [UInt64(1), 2, 3])
    func seedFormatAgrees(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var elements: [String] = []
        for index in 0..<200 {
            var fields = [
                #""identifier":"seed-\#(index)""#,
                #""firstName":"\#(random.chance(0.3) ? Self.escapedName : "Given\(index)")""#,
                #""lastName":"Family\#(index)""#,
            ]
            if random.chance(0.5) {
                fields.append(#""phoneNumber":"+1 555 \#(random.below(10000))""#)
            } else if random.chance(0.4) {
                fields.append(#""phoneNumber":null"#)
            }
            if random.chance(0.5) { fields.append(#""emailAddress":"p\#(index)@example.com""#) }
            if random.chance(0.1) { fields.append(#""favourite":true"#) }  // another key: Foundation decides
            if random.chance(0.5) { fields.reverse() }
            elements.append("{" + fields.joined(separator: random.chance(0.5) ? "," : ",\n  ") + "}")
        }
        var text = "[" + elements.joined(separator: ",\n") + "]"
        if random.chance(0.5) { text = "\u{FEFF}" + text }
        let expected = try ContactImport.decode(Data(text.utf8), source: "ContactItems.json")
        let stream = try #require(try ContactImportStream.check(Data(text.utf8)), "seed \(seed): deferred")
        #expect(stream.isSeedFormat)
        #expect(try stream.elements.indices.map(stream.record(at:)) == expected, "seed \(seed)")
        #expect(expected.count == 200)
    }

    @Test("An invalid identifier anywhere is refused before anything is written")
    func invalidIdentifier() throws {
        let text = #"[{"identifier":"ok","givenName":"A"},{"identifier":"bad\u0000id","givenName":"B"}]"#
        #expect(throws: (any Error).self) { _ = try ContactImportStream.check(Data(text.utf8)) }
    }

    @Test("Batched upserts write one entry per contact, count added and updated, and read back in order")
    func batchedUpsert() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.contact("c-3", given: "Old"))
            let records =
                (0..<10).map { StoreFixtures.contact("c-\($0)", given: "G\($0)") } + [
                    StoreFixtures.contact("c-1", given: "Again")
                ]
            var progress: [Int] = []
            let result = try database.upsert(count: records.count, batchSize: 4, progress: { progress.append($0) }) {
                records[$0]
            }
            #expect(result.added == 9)
            #expect(result.updated == 2)
            #expect(progress == [4, 8, 11])
            let all = try database.all()
            #expect(all.map(\.identifier) == ["c-3"] + (0..<10).filter { $0 != 3 }.map { "c-\($0)" })
            #expect(try database.get("c-1")?.givenName == "Again")
            #expect(try database.get("c-3")?.givenName == "G3")
            #expect(try database.store.load().headSeq == 12)
        }
    }
}
