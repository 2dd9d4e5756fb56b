import ContactProviderTesting
import Foundation
import TestSupport
import Testing

@testable import AppGroupStore

/// The store's hand-written codecs against Foundation's `JSONEncoder`/`JSONDecoder`, on seeded random
/// contacts (every field, valid and invalid values) and on random damage to their lines.
@Suite("Store codec: differential against Foundation")
struct StoreCodecDifferentialTests {
    static let seed: UInt64 = 0x17C0_DEC5

    struct TestMeta: Codable, Equatable, Sendable {
        var phase: String
        var page: Int?
    }

    // MARK: Generators

    static let pieces = [
        "a", "Z", "0", " ", "/", "\"", "\\", "\n", "\t", "\r", "\u{8}", "\u{c}", "\u{1}", "\u{1f}", "\u{7f}", "é",
        "e\u{301}", "😀", "\u{2028}", "中", "\u{0}", "{", "}", "[", "]", ",", ":", "null", "true", "1.5",
    ]

    static func string(_ random: inout SeededRandom, maxLength: Int = 6) -> String {
        (0..<random.int(0...maxLength)).map { _ in random.pick(pieces) }.joined()
    }

    static func date(_ random: inout SeededRandom) -> String {
        random.pick([
            "1980-05-17", "--02-29", "2024-12-31", "1980-13-01", "--00-10", "80-05-17", "", "x", "1980-05-17 ",
        ])
    }

    static func labeled(_ random: inout SeededRandom, dates: Bool = false) -> [ContactRecord.LabeledString] {
        (0..<random.int(0...2)).map { _ in
            .init(
                label: random.chance(0.3) ? nil : string(&random, maxLength: 3),
                value: dates ? date(&random) : string(&random))
        }
    }

    static func record(_ random: inout SeededRandom) -> ContactRecord {
        var record = ContactRecord(identifier: random.chance(0.05) ? "" : "id-" + string(&random, maxLength: 4))
        let fields: [WritableKeyPath<ContactRecord, String>] = [
            \.namePrefix, \.givenName, \.middleName, \.familyName, \.nameSuffix, \.nickname, \.organizationName,
            \.departmentName, \.jobTitle, \.note, \.previousFamilyName, \.phoneticGivenName, \.phoneticMiddleName,
            \.phoneticFamilyName, \.phoneticOrganizationName,
        ]
        for field in fields where random.chance(0.4) { record[keyPath: field] = string(&random) }
        if random.chance(0.5) { record.phoneNumbers = labeled(&random) }
        if random.chance(0.4) { record.emailAddresses = labeled(&random) }
        if random.chance(0.2) { record.urlAddresses = labeled(&random) }
        if random.chance(0.2) { record.contactRelations = labeled(&random) }
        if random.chance(0.2) { record.dates = labeled(&random, dates: true) }
        if random.chance(0.3) {
            record.postalAddresses = (0..<random.int(1...2)).map { _ in
                var address = ContactRecord.LabeledPostalAddress(
                    label: random.chance(0.5) ? nil : string(&random, maxLength: 2))
                address.street = string(&random)
                address.city = random.chance(0.5) ? string(&random) : ""
                address.subLocality = random.chance(0.3) ? string(&random) : ""
                address.subAdministrativeArea = random.chance(0.3) ? string(&random) : ""
                address.state = random.chance(0.3) ? string(&random) : ""
                address.postalCode = random.chance(0.3) ? string(&random) : ""
                address.country = random.chance(0.3) ? string(&random) : ""
                address.isoCountryCode = random.chance(0.3) ? string(&random) : ""
                return address
            }
        }
        if random.chance(0.3) { record.birthday = date(&random) }
        if random.chance(0.2) { record.imageData = Data(random.bytes(random.int(0...9))) }
        if random.chance(0.3) { record.contactType = random.pick(["organization", "person", "robot", ""]) }
        if random.chance(0.2) {
            record.nonGregorianBirthday = .init(
                calendar: random.pick(["chinese", "hebrew", "islamic", "klingon"]),
                era: random.chance(0.5) ? random.int(-2...90) : nil,
                year: random.chance(0.5) ? random.int(-5...5000) : nil, month: random.int(0...14),
                day: random.int(0...32),
                isLeapMonth: random.chance(0.5) ? random.chance(0.5) : nil)
        }
        if random.chance(0.2) {
            record.socialProfiles = (0..<random.int(1...2)).map { _ in
                var profile = ContactRecord.LabeledSocialProfile(
                    label: random.chance(0.5) ? nil : string(&random, maxLength: 2))
                profile.service = string(&random)
                profile.username = random.chance(0.5) ? string(&random) : ""
                profile.userIdentifier = random.chance(0.5) ? string(&random) : ""
                profile.urlString = random.chance(0.5) ? "https://x.example/" + string(&random) : ""
                return profile
            }
        }
        if random.chance(0.2) {
            record.instantMessageAddresses = (0..<random.int(1...2)).map { _ in
                .init(
                    label: random.chance(0.5) ? nil : "home", username: string(&random),
                    service: random.chance(0.5) ? "Skype" : "")
            }
        }
        return record
    }

    /// Random damage of the kind that reaches a store: cuts, stray bytes, swapped types, duplicate
    /// keys, odd numbers and escapes.
    static func mutate(_ line: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
        var bytes = line
        for _ in 0..<random.int(1...3) {
            let at = random.int(0...bytes.count)
            switch random.below(9) {
            case 0: if at < bytes.count { bytes.remove(at: at) }
            case 1:
                bytes.insert(
                    random.pick(Array(#"{}[]",:"\ 0123456789-.eEtfnul"#.utf8) + [0x0A, 0x01, 0xC3, 0xFF]), at: at)
            case 2: if at < bytes.count { bytes[at] = random.byte() }
            case 3:
                let replacement = random.pick([
                    #""givenName":"A","givenName":"B","#, #""birthday":null,"#, #""birthday":"1980-02-30","#,
                    #""contactType":"person","#, #""contactType":"Person","#,
                    #""phoneNumbers":[{"value":"1"},{"label":null,"value":"2"}],"#,
                    #""phoneNumbers":[{"label":"x"}],"#, #""note":"\u00e9\ud83d\ude00\/","#, #""note":"\ud800","#,
                    #""note":"\uDC00x","#, #""nonGregorianBirthday":{"calendar":"chinese","month":1.0,"day":1e1},"#,
                    #""nonGregorianBirthday":{"calendar":"hebrew","month":13,"day":1,"era":null,"isLeapMonth":1},"#,
                    #""imageData":"AQI=","#, #""imageData":"AQI","#, #""imageData":"A Q I=","#,
                    #""unknown":{"a":[1,-0,2.5e-3,"\n"]},"#,
                    #""dates":[{"value":"--12-01"}],"#, #""dates":[{"value":"12-01"}],"#, #""identifier":null,"#,
                    #""identifier":7,"#, #""socialProfiles":[{"service":null,"label":"l"}],"#,
                    #""instantMessageAddresses":[{}],"#,
                    #""postalAddresses":[{"street":1}],"#, #""jobTitle":"\u0000","#, " \t\r\n",
                ])
                if let brace = bytes.firstIndex(of: UInt8(ascii: "{")) {
                    bytes.insert(contentsOf: Array(replacement.utf8), at: brace + 1)
                }
            case 4: bytes = Array(bytes.prefix(at))
            case 5: bytes.insert(contentsOf: Array(" \n".utf8), at: at)
            case 6: bytes.insert(contentsOf: Array(#"\u00"#.utf8), at: at)
            case 7: bytes.insert(contentsOf: Array("-01".utf8), at: at)
            default: bytes.append(contentsOf: Array(random.pick([" ", "x", "}", ",", "\n"]).utf8))
            }
        }
        return bytes
    }

    // MARK: Comparison

    enum Outcome<Value: Equatable>: Equatable {
        case value(Value)
        case error(String)
    }

    static func outcome<Value: Equatable>(_ body: () throws -> Value) -> Outcome<Value> {
        do { return .value(try body()) } catch { return .error(LineCoding.reason(error)) }
    }

    // MARK: Tests

    @Test(
        "Encoding: every random contact (valid or not) reads back as Foundation's own encoding does, or fails with its error"
    )
    func encodingMatchesFoundation() throws {
        var fastPathUsed = 0
        for index in 0..<3000 {
            var random = SeededRandom.forCase(index, seed: Self.seed)
            let record = Self.record(&random)
            let ours = Self.outcome { try ContactRecordCodec.encode(record) }
            let foundation = Self.outcome { try LineCoding.encoder().encode(record) }
            switch (ours, foundation) {
            case (.value(let mine), .value(let theirs)):
                let readMine = Self.outcome { try JSONDecoder().decode(ContactRecord.self, from: mine) }
                let readTheirs = Self.outcome { try JSONDecoder().decode(ContactRecord.self, from: theirs) }
                #expect(
                    readMine == readTheirs,
                    "case \(index) (seed \(Self.seed)): \(String(decoding: mine, as: UTF8.self))")
                #expect(!mine.contains(0x0A), "case \(index): a contact line must hold no raw newline")
                // And the fast decoder reads both encodings itself, as Foundation does.
                let fastMine = mine.withUnsafeBytes { ContactRecordCodec.fastDecode($0) }
                let fastTheirs = theirs.withUnsafeBytes { ContactRecordCodec.fastDecode($0) }
                if case .value(let expected) = readTheirs {
                    #expect(fastMine == expected, "case \(index): \(String(decoding: mine, as: UTF8.self))")
                    #expect(fastTheirs == expected, "case \(index): \(String(decoding: theirs, as: UTF8.self))")
                    fastPathUsed += 1
                }
            case (.error(let mine), .error(let theirs)):
                #expect(mine == theirs, "case \(index)")
            default:
                Issue.record("case \(index) (seed \(Self.seed)): ours \(ours), Foundation \(foundation)")
            }
        }
        #expect(fastPathUsed > 1000, "the generator must produce mostly valid contacts")
    }

    @Test(
        "Decoding: damaged contact lines give Foundation's value or Foundation's error; the fast path never accepts more"
    )
    func decodingMatchesFoundation() throws {
        var fastAccepted = 0
        var fastGaveUp = 0
        for index in 0..<8000 {
            var random = SeededRandom.forCase(index, seed: Self.seed &+ 1)
            let record = Self.record(&random)
            guard let line = try? LineCoding.encoder().encode(record) else { continue }
            let damaged = Data(Self.mutate(Array(line), &random))
            let foundation = Self.outcome { try JSONDecoder().decode(ContactRecord.self, from: damaged) }
            let ours = Self.outcome { try ContactRecordCodec.decode(damaged) }
            #expect(
                ours == foundation,
                "case \(index) (seed \(Self.seed &+ 1)): \(String(decoding: damaged, as: UTF8.self))")
            if let fast = damaged.withUnsafeBytes({ ContactRecordCodec.fastDecode($0) }) {
                fastAccepted += 1
                #expect(
                    foundation == .value(fast),
                    "case \(index): the fast path accepted \(String(decoding: damaged, as: UTF8.self))")
            } else {
                fastGaveUp += 1
            }
            // Identifier-only reading (lazy snapshots, compaction) against Foundation's.
            struct IdentifierOnly: Decodable, Equatable { var identifier: String }
            if let identifier = damaged.withUnsafeBytes({ ContactRecordCodec.fastIdentifier($0) }) {
                let expected = Self.outcome { try JSONDecoder().decode(IdentifierOnly.self, from: damaged).identifier }
                #expect(expected == .value(identifier), "case \(index): \(String(decoding: damaged, as: UTF8.self))")
            }
        }
        #expect(fastAccepted > 500 && fastGaveUp > 500, "accepted \(fastAccepted), gave up \(fastGaveUp)")
    }

    @Test(
        "Journal lines: written lines read back as Foundation reads them; damaged ones give Foundation's value or error"
    )
    func journalLinesMatchFoundation() throws {
        for index in 0..<2000 {
            var random = SeededRandom.forCase(index, seed: Self.seed &+ 2)
            let upsert = random.chance(0.8) ? (0..<random.int(0...3)).map { _ in Self.record(&random) } : nil
            let delete = random.chance(0.5) ? (0..<random.int(0...3)).map { _ in Self.string(&random) } : nil
            let meta =
                random.chance(0.5) ? TestMeta(phase: Self.string(&random), page: random.chance(0.5) ? index : nil) : nil
            let seq = random.int(1...1_000_000)
            // Drawn from a generator of its own, so the other values stay those of the seed's cases.
            var authorRandom = SeededRandom.forCase(index, seed: Self.seed &+ 5)
            let author = authorRandom.chance(0.3) ? Self.string(&authorRandom) : nil
            let line = Self.outcome {
                try LineCoding.encodeEntryLine(seq: seq, author: author, upsert: upsert, delete: delete, meta: meta)
            }
            guard case .value(let written) = line else {
                // Only a contact Foundation refuses to encode may stop a line, with Foundation's error.
                #expect(upsert?.contains { !ContactRecordCodec.isEncodable($0) } == true, "case \(index): \(line)")
                continue
            }
            #expect(written.last == 0x0A && written.dropLast().firstIndex(of: 0x0A) == nil, "case \(index): one line")
            #expect(LineCoding.fastSeq(written[...]) == seq, "case \(index): the line starts with its seq")
            let body = Data(written.dropLast())
            let expected = try JSONDecoder().decode(JournalEntry<TestMeta>.self, from: body)
            #expect(
                expected.seq == seq && expected.author == author && expected.delete == delete && expected.meta == meta,
                "case \(index)")
            #expect(expected.upsert?.count == upsert?.count, "case \(index)")
            let fast: JournalEntry<TestMeta>? = body.withUnsafeBytes {
                JournalLineCodec.fastEntry($0, identifiersOnly: false)
            }
            #expect(fast == expected, "case \(index): \(String(decoding: body, as: UTF8.self))")

            let damaged = Data(Self.mutate(Array(body), &random))
            let foundation = Self.outcome { try JSONDecoder().decode(JournalEntry<TestMeta>.self, from: damaged) }
            let fastDamaged: JournalEntry<TestMeta>? = damaged.withUnsafeBytes {
                JournalLineCodec.fastEntry($0, identifiersOnly: false)
            }
            if let fastDamaged {
                #expect(foundation == .value(fastDamaged), "case \(index): \(String(decoding: damaged, as: UTF8.self))")
            }
            if let ranges = damaged.withUnsafeBytes({ JournalLineCodec.fastRanges($0, metaType: TestMeta.self) }) {
                guard case .value(let entry) = foundation else {
                    Issue.record(
                        "case \(index): ranges of a line Foundation refuses: \(String(decoding: damaged, as: UTF8.self))"
                    )
                    continue
                }
                #expect(ranges.seq == entry.seq && ranges.delete == (entry.delete ?? []) && ranges.meta == entry.meta)
                // Each range holds exactly the contact Foundation decoded.
                let copied = try ranges.upsert.map {
                    try JSONDecoder().decode(ContactRecord.self, from: damaged[$0.range])
                }
                #expect(copied == (entry.upsert ?? []), "case \(index)")
                #expect(ranges.upsert.map(\.identifier) == (entry.upsert ?? []).map(\.identifier))
            }
            // Decoding the contacts (what a compaction with an index does) accepts the same lines, with
            // the same ranges, and sees each contact as Foundation decodes it, in order.
            var seen: [ContactRecord] = []
            let decodedRanges = damaged.withUnsafeBytes {
                JournalLineCodec.fastRanges($0, metaType: TestMeta.self, decodesContacts: true) { record in
                    seen.append(record)
                    return seen.count - 1
                }
            }
            let checkedRanges = damaged.withUnsafeBytes { JournalLineCodec.fastRanges($0, metaType: TestMeta.self) }
            #expect(
                decodedRanges?.upsert.map(\.range) == checkedRanges?.upsert.map(\.range)
                    && decodedRanges?.seq == checkedRanges?.seq,
                "case \(index): \(String(decoding: damaged, as: UTF8.self))")
            if let decodedRanges, case .value(let entry) = foundation {
                #expect(seen == (entry.upsert ?? []), "case \(index)")
                #expect(decodedRanges.upsert.map(\.tag) == Array(seen.indices), "case \(index)")
            }
        }
    }

    @Test("A store whose snapshot line breaks a rule is refused with path:line and Foundation's reason")
    func storeErrorsKeepPathAndLine() throws {
        let directory = NSTemporaryDirectory() + "/codec-diff-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = JournaledStore<NoMetadata>(directory: directory)
        var first = ContactRecord(identifier: "a")
        first.givenName = "Ada"
        var second = ContactRecord(identifier: "b")
        second.birthday = "1815-12-10"
        try store.replaceAll(with: [first, second])
        #expect(try store.load().contacts == [first, second])
        let path = store.snapshotPath
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let broken = text.replacingOccurrences(of: "1815-12-10", with: "1815-13-10")
        try broken.write(toFile: path, atomically: false, encoding: .utf8)
        let bad = #"{"identifier":"b","birthday":"1815-13-10"}"#
        let reason = Self.outcome { try JSONDecoder().decode(ContactRecord.self, from: Data(bad.utf8)) }
        guard case .error(let expectedReason) = reason else {
            Issue.record("Foundation accepted \(bad)")
            return
        }
        #expect(throws: StoreError.malformed(path: path, line: 3, reason: expectedReason)) { try store.load() }
    }
}
