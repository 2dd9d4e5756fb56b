import Foundation
import TestSupport
import Testing

@testable import AppGroupStore

@Suite("StoreHeaderCodec: the header lines read by hand give Foundation's value, or are left to Foundation")
struct StoreHeaderCodecTests {
    struct Tag: Codable, Equatable, Sendable {
        var value: Int
    }

    /// Lines Foundation decodes: the hand reader either gives the same header or gives up.
    static let snapshotLines = [
        #"{"format":1,"kind":"snapshot","generation":"G1","baseSeq":0,"count":0}"#,
        #"{"baseSeq":120,"count":3,"format":1,"generation":"G2","kind":"snapshot","previousGeneration":"G1"}"#,
        #"{"format":1,"kind":"snapshot","generation":"G3","previousGeneration":null,"replacedGeneration":"G0","baseSeq":7,"count":2,"meta":null}"#,
        #" { "format" : 1 , "kind" : "snapshot", "generation" : "\u0047é", "baseSeq" : 5 , "count" : 1, "future": [1, {"a": null}] } "#,
        #"{"format":1,"kind":"snapshot","generation":"G4","baseSeq":1,"count":1,"meta":{"value":4}}"#,
        #"{"format":2,"kind":"snapshot","generation":"G5","baseSeq":1,"count":1}"#,
        #"{"format":1.0,"kind":"snapshot","generation":"G6","baseSeq":1,"count":1}"#,
    ]

    /// Lines Foundation refuses: the hand reader must give up on each.
    static let refusedSnapshotLines = [
        #"{"format":1,"kind":"snapshot","generation":"G1","baseSeq":0}"#,
        #"{"format":"1","kind":"snapshot","generation":"G1","baseSeq":0,"count":0}"#,
        #"{"format":1,"kind":"snapshot","generation":null,"baseSeq":0,"count":0}"#,
        #"{"format":1,"kind":"snapshot","generation":"G1","baseSeq":0,"count":0"#,
        #"{"format":1,"kind":"snapshot","generation":"G1","baseSeq":0,"count":0} x"#,
        #"{"format":1,"kind":"snapshot","generation":"G1","baseSeq":0,"count":0,"meta":{"value":"x"}}"#,
    ]

    @Test("Snapshot headers: the same value as Foundation's, or nil", arguments: snapshotLines)
    func snapshotHeaderAgrees(line: String) throws {
        let foundation = try JSONDecoder().decode(SnapshotHeader<Tag>.self, from: Data(line.utf8))
        let fast: SnapshotHeader<Tag>? = Data(line.utf8).withUnsafeBytes { StoreHeaderCodec.fastSnapshotHeader($0) }
        if let fast { #expect(fast == foundation) }
        let decoded: SnapshotHeader<Tag> = try Data(line.utf8).withUnsafeBytes {
            try StoreHeaderCodec.decodeSnapshotHeader($0)
        }
        #expect(decoded == foundation)
    }

    @Test("Lines Foundation refuses are refused, with Foundation's error", arguments: refusedSnapshotLines)
    func refusedSnapshotHeader(line: String) {
        let fast: SnapshotHeader<Tag>? = Data(line.utf8).withUnsafeBytes { StoreHeaderCodec.fastSnapshotHeader($0) }
        #expect(fast == nil)
        #expect(throws: DecodingError.self) {
            let _: SnapshotHeader<Tag> = try Data(line.utf8).withUnsafeBytes {
                try StoreHeaderCodec.decodeSnapshotHeader($0)
            }
        }
    }

    @Test("The headers the store writes are read by hand")
    func writtenHeadersTakeTheFastPath() throws {
        try withTemporaryAppGroup { group in try expectWrittenHeadersTakeTheFastPath(group.path + "/store") }
    }

    private func expectWrittenHeadersTakeTheFastPath(_ directory: String) throws {
        let store = JournaledStore<NoMetadata>(directory: directory)
        try store.append(upsert: [ContactRecord(identifier: "a")])
        try store.compact()
        try store.append(upsert: [ContactRecord(identifier: "b")])
        for path in [store.snapshotPath, store.journalPath] {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let line = Data(text.prefix { $0 != "\n" }.utf8)
            if path == store.snapshotPath {
                let fast: SnapshotHeader<NoMetadata>? = line.withUnsafeBytes {
                    StoreHeaderCodec.fastSnapshotHeader($0)
                }
                #expect(fast == (try JSONDecoder().decode(SnapshotHeader<NoMetadata>.self, from: line)))
                #expect(fast != nil, "\(text.prefix(200))")
            } else {
                let fast = line.withUnsafeBytes { StoreHeaderCodec.fastJournalHeader($0) }
                #expect(fast == (try JSONDecoder().decode(JournalHeader.self, from: line)))
                #expect(fast != nil)
            }
        }
    }

    @Test(
        "Journal headers: the same value as Foundation's, or nil; refused lines are refused",
        arguments: [
            (#"{"format":1,"kind":"journal","generation":"G1","baseSeq":3}"#, true),
            (#"{"baseSeq":3,"generation":"G1","kind":"journal","format":1,"extra":true}"#, true),
            (#"{"format":1,"kind":"journal","generation":"G1"}"#, false),
            (#"{"format":1,"kind":"journal","generation":"G1","baseSeq":-1.5}"#, false),
            (#"{"format":1,"kind":"journal","generation":"G1","baseSeq":3,"baseSeq":4}"#, true),
        ])
    func journalHeader(line: String, foundationAccepts: Bool) throws {
        let data = Data(line.utf8)
        let fast = data.withUnsafeBytes { StoreHeaderCodec.fastJournalHeader($0) }
        if foundationAccepts {
            let foundation = try JSONDecoder().decode(JournalHeader.self, from: data)
            if let fast { #expect(fast == foundation) }
            #expect(try StoreHeaderCodec.decodeJournalHeader(data) == foundation)
        } else {
            #expect(fast == nil)
            #expect(throws: DecodingError.self) { try StoreHeaderCodec.decodeJournalHeader(data) }
        }
    }
}
