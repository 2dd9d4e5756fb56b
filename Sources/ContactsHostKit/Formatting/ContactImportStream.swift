import AppGroupStore
import Foundation

// The JSON bytes in this file are hex literals, not `UInt8(ascii:)`: that initializer is a function
// call in a debug build, once per byte of every contact read or written (7% of a debug import).
// 0x22 "  0x5C \  0x2F /  0x7B {  0x7D }  0x5B [  0x5D ]  0x3A :  0x2C ,  0x2B +  0x2D -  0x2E .
// 0x30 0  0x39 9  0x41 A  0x45 E  0x46 F  0x61 a  0x62 b  0x65 e  0x66 f  0x6E n  0x72 r  0x74 t  0x75 u

/// The contacts of a JSON import file, decoded one at a time: an import of a million contacts never
/// holds them all (nor Foundation's parse of the whole document) in memory at once.
///
/// `check` finds each contact's bytes in the document (a JSON array of contacts, or the export
/// document's `contacts` array) and decodes every one, so a file with any problem is known before
/// anything is written; `record(at:)` decodes one again for writing. The seed demo's
/// `ContactItems.json` streams too (converted as `ContactImport` converts it). Anything unusual — a
/// syntax error, a value the store's codec leaves to Foundation that then fails, a repeated key —
/// answers nil from `check`: the caller then takes the whole-document path
/// (`ContactImport.decode`), whose messages name the line and the contact. Both paths accept the
/// same files with the same contacts; this one is only cheaper.
package struct ContactImportStream {
    /// The document's bytes (kept alive: `elements` are ranges into them).
    package let data: Data
    /// Each contact's JSON, in file order.
    package let elements: [Range<Int>]
    /// Whether the elements are the seed demo's records (`identifier`, `firstName`, `lastName`,
    /// `phoneNumber`, `emailAddress`) rather than contacts with Contacts key names.
    package var isSeedFormat = false
    /// Where a seed record is written as a plain contact before it is transcoded: one buffer for
    /// the whole import, not one per contact.
    private let plainScratch = ScratchJSONWriter()

    /// Scans and decodes every contact of `data`; nil when the whole-document path must decide.
    /// Throws the first invalid identifier (as the store would, before anything is written).
    package static func check(_ data: Data) throws -> ContactImportStream? {
        var data = data
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = Data(data.dropFirst(3)) }
        // An empty file is the whole-document path's to report (the scanner needs an address).
        guard !data.isEmpty else { return nil }
        if let stream = try checkPlainArray(data) { return stream }
        let scanned: (elements: [Range<Int>], topLevelArray: Bool)? = data.withUnsafeBytes { bytes in
            var scanner = Scanner(bytes: bytes)
            return scanner.document()
        }
        guard let scanned else { return nil }
        var stream = ContactImportStream(data: data, elements: scanned.elements)
        if scanned.topLevelArray, let first = scanned.elements.first {
            // The test `ContactImport` applies to a top-level array's first element.
            guard let seed = stream.looksLikeSeed(first) else { return nil }
            stream.isSeedFormat = seed
        }
        var invalidIdentifier: Error?
        for index in scanned.elements.indices {
            let identifier: String
            if stream.isSeedFormat {
                guard let seedIdentifier = stream.seedIdentifier(index) else { return nil }
                identifier = seedIdentifier
            } else {
                guard let checked = stream.checkedIdentifier(index) else { return nil }
                identifier = checked
            }
            if invalidIdentifier == nil, !identifier.isEmpty {
                do { try IdentifierRules.validate(identifier) } catch { invalidIdentifier = error }
            }
        }
        if let invalidIdentifier { throw invalidIdentifier }
        return stream
    }

    /// `check` for the usual file, an array of plain contacts, read in one pass
    /// (`ContactRecordCodec.plainContacts`): the same stream `check` makes of it, or nil when the
    /// file is anything else (or its contacts are the seed demo's), for `check`'s scan to decide.
    private static func checkPlainArray(_ data: Data) throws -> ContactImportStream? {
        // The test `ContactImport` applies to a top-level array's first element: seed records take the scan.
        let probe = ContactImportStream(data: data, elements: [])
        guard
            let plain = data.withUnsafeBytes({
                ContactRecordCodec.plainContacts(in: $0) { probe.looksLikeSeed($0) == false }
            })
        else { return nil }
        let stream = ContactImportStream(data: data, elements: plain.ranges)
        // The array from a local: a debug build copies it out of the tuple (a retain and a release)
        // at each `plain.identifiers`, three times per contact.
        let identifiers = plain.identifiers
        var index = 0
        while index < identifiers.count {
            // The first invalid identifier, as the scan's check throws it.
            if !identifiers[index].isEmpty { try IdentifierRules.validate(identifiers[index]) }
            index += 1
        }
        return stream
    }

    /// The contact at `index` (already checked by `check`).
    package func record(at index: Int) throws -> ContactRecord {
        if isSeedFormat {
            guard let record = decodeSeed(index) else {
                throw ContactImport.ImportError(description: "contact #\(index + 1) changed after it was checked")
            }
            return record
        }
        return try data.withUnsafeBytes { bytes in
            let slice = UnsafeRawBufferPointer(rebasing: bytes[elements[index]])
            if let record = ContactRecordCodec.decodeIfPlain(slice) { return record }
            return try JSONDecoder().decode(ContactRecord.self, from: Data(slice))
        }
    }

    /// Copies the contact at `index` (already checked by `check`) into `batch` in the store's form and
    /// returns its identifier, when `ContactTranscoder` copies it; nil when `record(at:)` must decode it.
    package func transcode(at index: Int, into batch: inout ContactBatch) -> String? {
        data.withUnsafeBytes { bytes in
            let element = UnsafeRawBufferPointer(rebasing: bytes[elements[index]])
            guard isSeedFormat else { return batch.transcode(element) }
            // A seed record is first written as the plain contact `ContactImport.convert` makes of
            // it, whose JSON the transcoder then copies: no record is built for it, as for a plain file.
            return plainScratch.withWriter { plain in
                guard Self.writePlainContact(ofSeed: element, to: &plain) else { return nil }
                return batch.transcode(plain.bytes)
            }
        }
    }

    /// Writes the seed record in `bytes` as a plain contact's JSON, as `ContactImport.convert` maps
    /// it: `firstName` and `lastName` to the given and family names, `phoneNumber` to a mobile phone,
    /// `emailAddress` to an e-mail without a label. The values' JSON is copied as it is (the
    /// transcoder refuses escapes it would write otherwise). False for a key twice or a value that is
    /// not a string (or null, for the last two); another key is left out, as Foundation's decoding,
    /// which the check asks for such a record, leaves it.
    static func writePlainContact(ofSeed bytes: UnsafeRawBufferPointer, to plain: inout JSONWriter) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        // The ranges in a struct, not an array: an array of five was an allocation per contact, and
        // this function was a fifth of a 1M seed import's CPU (`perf`).
        let values: SeedValueRanges? = StrictJSONReader.readWhole(bytes) { reader in
            var values = SeedValueRanges()
            var members = StrictJSONReader.ObjectMembers()
            while let index = try reader.nextMember(of: seedKeys, &members) {
                if index >= 3, try reader.consumeNull() { continue }
                reader.skipWhitespace()
                guard try reader.peek() == 0x22 else { throw StrictJSONReader.GiveUp() }
                let range = try reader.valueRange()
                switch index {
                case 0: values.identifier = range
                case 1: values.firstName = range
                case 2: values.lastName = range
                case 3: values.phone = range
                default: values.email = range
                }
            }
            return values
        }
        guard let values, let identifier = values.identifier, let firstName = values.firstName,
            let lastName = values.lastName
        else { return false }
        func member(_ key: StaticString, _ range: Range<Int>) {
            plain.key(key)
            plain.append(base + range.lowerBound, count: range.count)
        }
        // `key` writes the comma before each member but the first of an object.
        plain.open()
        member("identifier", identifier)
        member("givenName", firstName)
        member("familyName", lastName)
        if let phone = values.phone {
            plain.key("phoneNumbers")
            plain.byte(0x5B)
            plain.open()
            plain.key("label")
            plain.string(Self.mobileLabel)
            member("value", phone)
            plain.close()
            plain.byte(0x5D)
        }
        if let email = values.email {
            plain.key("emailAddresses")
            plain.byte(0x5B)
            plain.open()
            member("value", email)
            plain.close()
            plain.byte(0x5D)
        }
        plain.close()
        return true
    }

    /// Where a seed record's values lie in its bytes (nil: absent, or null for the last two).
    private struct SeedValueRanges {
        var identifier: Range<Int>?
        var firstName: Range<Int>?
        var lastName: Range<Int>?
        var phone: Range<Int>?
        var email: Range<Int>?
    }

    /// The label `ContactImport.convert` gives a seed record's phone number.
    private static let mobileLabel = Labels.stored("mobile")

    /// The identifier of the contact at `index`, or nil when Foundation refuses it or it repeats a key.
    ///
    /// A plain contact is only checked (`identifierIfPlain`), not made into a record: `record(at:)`
    /// decodes it again to write it, and building each record twice was most of the check's time in
    /// a debug build. Anything else is decoded by Foundation, as `record(at:)` will.
    private func checkedIdentifier(_ index: Int) -> String? {
        data.withUnsafeBytes { bytes in
            let slice = UnsafeRawBufferPointer(rebasing: bytes[elements[index]])
            if let identifier = ContactRecordCodec.identifierIfPlain(slice) { return identifier }
            let element = Data(slice)
            guard let record = try? JSONDecoder().decode(ContactRecord.self, from: element),
                JSONDuplicateKeys.first(in: element) == nil
            else { return nil }
            return record.identifier
        }
    }

    /// Whether the first element of a top-level array is a seed record (the test `ContactImport`
    /// applies); nil when it is not an object at all (the whole-document path reports it).
    private func looksLikeSeed(_ range: Range<Int>) -> Bool? {
        guard let object = try? JSONSerialization.jsonObject(with: data[range]) as? [String: Any] else { return nil }
        return object["firstName"] != nil || object["lastName"] != nil
    }

    /// The identifier of the seed record at `index`: the check only needs to know that the record
    /// reads, not to convert it. Nil when Foundation refuses it or it repeats a key.
    private func seedIdentifier(_ index: Int) -> String? {
        let identifier = data.withUnsafeBytes { bytes in
            Self.seedIdentifierIfPlain(UnsafeRawBufferPointer(rebasing: bytes[elements[index]]))
        }
        return identifier ?? seed(at: index)?.identifier
    }

    /// The identifier of the seed record in `bytes` when `readSeed` reads it, checked as `readSeed`
    /// checks it but with only the identifier made a `String`; nil when `readSeed` would give up.
    ///
    /// Building all five values of every record only to keep the identifier made the seed format's
    /// check about a third of its import beside the plain format's (I2 1.47–1.55× I1, `perf`). Its
    /// loop reads the members `writePlainContact` reads, but keeps no ranges: reading them through
    /// one shared function that keeps them cost a 1M seed import 8% more CPU (1.90 → 2.06 s).
    /// `SeedImportCopyTests` holds it to `readSeed` on random and damaged records.
    static func seedIdentifierIfPlain(_ bytes: UnsafeRawBufferPointer) -> String? {
        StrictJSONReader.readWhole(bytes) { reader in
            var identifier: String?
            var seen = 0
            var members = StrictJSONReader.ObjectMembers()
            while let index = try reader.nextMember(of: seedKeys, &members) {
                seen |= 1 << index
                if index >= 3, try reader.consumeNull() { continue }
                if index == 0 {
                    identifier = try reader.readString()
                } else {
                    try reader.skipString()
                }
            }
            // The three required keys, and no other key (`nextMember` refuses a known key twice, and
            // skips the others), as `readSeed` requires.
            guard seen & 0b111 == 0b111, !members.skippedUnknownKey, let identifier else {
                throw StrictJSONReader.GiveUp()
            }
            return identifier
        }
    }

    /// The seed record at `index`, converted; nil when Foundation refuses it or it repeats a key.
    private func decodeSeed(_ index: Int) -> ContactRecord? {
        seed(at: index).map(ContactImport.convert)
    }

    /// The seed record at `index`; nil when Foundation refuses it or it repeats a key.
    ///
    /// The fast path reads the five keys with the store's strict reader and gives up on anything
    /// else (another key, an escape it leaves to Foundation, a type other than a string or a null
    /// optional); then Foundation decodes the element, as the whole-document path would.
    private func seed(at index: Int) -> ContactImport.SeedRecord? {
        data.withUnsafeBytes { bytes in
            let slice = UnsafeRawBufferPointer(rebasing: bytes[elements[index]])
            if let seed = Self.readSeed(slice) { return seed }
            let element = Data(slice)
            guard let seed = try? JSONDecoder().decode(ContactImport.SeedRecord.self, from: element),
                JSONDuplicateKeys.first(in: element) == nil
            else { return nil }
            return seed
        }
    }

    private static let seedKeys = JSONKeyTable(["identifier", "firstName", "lastName", "phoneNumber", "emailAddress"])

    /// The seed record in `bytes` when it holds only the five keys, each once, with string values
    /// (or null for the optional two); nil otherwise.
    static func readSeed(_ bytes: UnsafeRawBufferPointer) -> ContactImport.SeedRecord? {
        StrictJSONReader.readWhole(bytes) { reader in
            var values: [String?] = [nil, nil, nil, nil, nil]
            var seen = 0
            try reader.readObject { reader, key in
                guard let index = seedKeys.index(of: key), seen & (1 << index) == 0 else {
                    throw StrictJSONReader.GiveUp()
                }
                seen |= 1 << index
                if index >= 3, try reader.consumeNull() { return }
                values[index] = try reader.readString()
            }
            guard let identifier = values[0], let firstName = values[1], let lastName = values[2] else {
                throw StrictJSONReader.GiveUp()
            }
            return ContactImport.SeedRecord(
                identifier: identifier, firstName: firstName, lastName: lastName, phoneNumber: values[3],
                emailAddress: values[4])
        }
    }

    /// Finds the contact elements; gives up (nil) on anything but the two plain shapes.
    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        /// `bytes`, read through a pointer in the loops that visit every byte: a debug build makes a
        /// call of each buffer subscript (a pointer's is inlined).
        let base: UnsafePointer<UInt8>
        /// `bytes.count`.
        let end: Int
        var position = 0

        /// A scanner of `bytes`, which must not be empty (an empty buffer has no address).
        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
            end = bytes.count
            base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        }

        mutating func document() -> (elements: [Range<Int>], topLevelArray: Bool)? {
            skipSpace()
            guard position < bytes.count else { return nil }
            let result: (elements: [Range<Int>], topLevelArray: Bool)
            switch bytes[position] {
            case 0x5B:
                guard let elements = array() else { return nil }
                result = (elements, true)
            case 0x7B:
                guard let elements = exportDocument() else { return nil }
                result = (elements, false)
            default:
                return nil
            }
            skipSpace()
            return position == bytes.count ? result : nil
        }

        /// `{"format":1,"kind":"…","contacts":[…]}` in any key order; other keys are skipped (as
        /// Foundation's decoder skips them).
        private mutating func exportDocument() -> [Range<Int>]? {
            position += 1
            var elements: [Range<Int>]?
            var format: Int?
            var kind = false
            var keys = Set<[UInt8]>()
            skipSpace()
            if peek(0x7D) { return nil }
            while true {
                skipSpace()
                guard let key = plainString(), keys.insert(key).inserted else { return nil }
                skipSpace()
                guard take(0x3A) else { return nil }
                skipSpace()
                switch String(decoding: key, as: UTF8.self) {
                case "contacts":
                    guard peek(0x5B), let found = array() else { return nil }
                    elements = found
                case "format":
                    let start = position
                    while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
                    guard position > start, position - start < 10 else { return nil }
                    format = Int(
                        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
                case "kind":
                    guard plainString() != nil else { return nil }
                    kind = true
                default:
                    guard skipValue() != nil else { return nil }
                }
                skipSpace()
                if take(0x7D) { break }
                guard take(0x2C) else { return nil }
            }
            guard let elements, format == StoreFormat.version, kind else { return nil }
            return elements
        }

        /// The ranges of the objects of the array at `position`; nil if an element is not an object.
        private mutating func array() -> [Range<Int>]? {
            position += 1
            var elements: [Range<Int>] = []
            skipSpace()
            if take(0x5D) { return elements }
            while true {
                skipSpace()
                guard peek(0x7B), let range = skipValue() else { return nil }
                elements.append(range)
                skipSpace()
                if take(0x5D) { return elements }
                guard take(0x2C) else { return nil }
            }
        }

        /// Skips one object, array or scalar (its syntax inside is checked later, by decoding it).
        private mutating func skipValue() -> Range<Int>? {
            let start = position
            var depth = 0
            while position < end {
                let byte = base[position]
                switch byte {
                case 0x22:
                    guard skipString() else { return nil }
                    if depth == 0 { return start..<position }
                    continue
                case 0x7B, 0x5B:
                    depth += 1
                case 0x7D, 0x5D:
                    if depth == 0 { return position > start ? start..<position : nil }
                    depth -= 1
                    if depth == 0 {
                        position += 1
                        return start..<position
                    }
                case 0x2C:
                    if depth == 0 { return position > start ? start..<position : nil }
                default:
                    break
                }
                position += 1
            }
            return nil
        }

        /// Moves past the string at `position` (escapes skipped, not checked).
        private mutating func skipString() -> Bool {
            position += 1
            // Most strings hold no escape: libc's memchr finds the closing quote without the byte loop
            // below, which costs several calls per byte in a debug build (issue 44, item 5).
            if position < end, let quote = memchr(base + position, 0x22, end - position) {
                let stop = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(quote))
                if memchr(base + position, 0x5C, stop - position) == nil {
                    position = stop + 1
                    return true
                }
            }
            while position < end {
                switch base[position] {
                case 0x5C: position += 2
                case 0x22:
                    position += 1
                    return true
                default: position += 1
                }
            }
            return false
        }

        /// A string without escapes (the export document's keys and kind), as bytes.
        private mutating func plainString() -> [UInt8]? {
            guard take(0x22) else { return nil }
            let start = position
            while position < bytes.count, bytes[position] != 0x22 {
                guard bytes[position] != 0x5C, bytes[position] >= 0x20 else { return nil }
                position += 1
            }
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return Array(bytes[start..<position])
        }

        @_transparent  // inlined even at -Onone: called per token of the import (issue 44, item 5)
        private mutating func skipSpace() {
            while position < end {
                switch base[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        @_transparent  // inlined even at -Onone: called per token of the import (issue 44, item 5)
        private func peek(_ byte: UInt8) -> Bool {
            position < end && base[position] == byte
        }

        @_transparent  // inlined even at -Onone: called per token of the import (issue 44, item 5)
        private mutating func take(_ byte: UInt8) -> Bool {
            guard peek(byte) else { return false }
            position += 1
            return true
        }
    }
}

/// A ``JSONWriter`` reused from one contact to the next (a class: the stream that owns it is a value
/// whose methods do not mutate it). Used from one thread at a time, as an import is.
private final class ScratchJSONWriter {
    private var writer = JSONWriter(capacity: 1024)

    /// Runs `body` with the writer emptied.
    func withWriter<T>(_ body: (inout JSONWriter) -> T) -> T {
        writer.removeAll()
        return body(&writer)
    }
}
