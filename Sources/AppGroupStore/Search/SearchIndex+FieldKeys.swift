import Glibc

extension SearchIndex {
    /// An index's keys declared as a function of a few text fields: the keys of a contact are
    /// `append` applied to the UTF-8 of each of `fields` in turn (an absent or null field is empty,
    /// and appends nothing), exactly what ``SearchIndex/appendKeys`` (or ``SearchIndex/keys``) makes
    /// of the whole record.
    ///
    /// Said this way, a compaction derives a contact's keys from the bytes of its stored JSON while
    /// it checks it (``FieldKeyDeriver``), without making a `ContactRecord`: decoding each contact an
    /// import wrote only to read its names was a third of a debug import's compaction (`perf`).
    package struct FieldKeys: Sendable {
        /// The fields the keys are made of, in the order their keys are written; each of kind `.text`.
        package let fields: [ContactRecord.Field]
        /// Appends the keys of one field's value (its UTF-8, never empty) as an index line holds
        /// them: a space before each key.
        package let append: @Sendable (UnsafeBufferPointer<UInt8>, inout [UInt8]) -> Void

        /// Keys made of `fields` (each of kind `.text`), `append` writing those of one field's value.
        package init(
            fields: [ContactRecord.Field],
            append: @escaping @Sendable (UnsafeBufferPointer<UInt8>, inout [UInt8]) -> Void
        ) {
            self.fields = fields
            self.append = append
        }
    }
}

/// Derives the keys of the ``SearchIndex/FieldKeys`` indexes from a contact's JSON as
/// `ContactRecordCodec.checkRecord(_:capturing:into:)` found its fields: the JSON value of each
/// field the keys read (its range in the line), taken as the UTF-8 it holds when it has no escape,
/// and read as `readRecord` reads it when it has one.
///
/// It owns the memory the check writes the ranges to (two `Int`s, start and end, per field of the
/// record's table), so one deriver serves every contact of a compaction.
final class FieldKeyDeriver {
    /// Each spec's `append`, in the order their keys are written (`specCount` of them).
    ///
    /// The closures and the field positions are kept apart, both in plain memory: reading a spec or
    /// a `[Int]` out of an array copies it in a debug build (a retain and a release of each array
    /// and closure in it), and a class's array property is retained and released at each read, for
    /// every contact a compaction reads. Each closure is in a struct: one read out of generic
    /// storage as a bare closure is converted from the generic form, a thunk allocated and freed.
    private let appends: UnsafeMutablePointer<Appender>
    /// How many specs (and `appends`) there are.
    private let specCount: Int

    /// One spec's `append`, held as the struct's stored closure.
    private struct Appender {
        let append: @Sendable (UnsafeBufferPointer<UInt8>, inout [UInt8]) -> Void
    }
    /// The table indexes (`ContactRecordCodec.recordFields`) of every spec's fields, one spec after
    /// another: spec `s`'s are `positions[firstPosition[s] ..< firstPosition[s + 1]]`.
    private let positions: UnsafeMutablePointer<Int>
    private let firstPosition: UnsafeMutablePointer<Int>
    /// The fields any spec reads, as a mask (`ContactRecordCodec.fieldMask`).
    let mask: UInt64
    /// Where the check writes each captured field's range: `ranges[2 * i]` and `ranges[2 * i + 1]`
    /// for table index `i`, the start -1 when the field was absent.
    let ranges: UnsafeMutablePointer<Int>

    /// A deriver for `indexes`; nil unless every one declares ``SearchIndex/FieldKeys`` of text fields.
    init?(_ indexes: [SearchIndex]) {
        var appends: [Appender] = []
        var allPositions: [Int] = []
        var starts: [Int] = [0]
        var mask: UInt64 = 0
        for index in indexes {
            guard let spec = index.fieldKeys else { return nil }
            for field in spec.fields {
                guard field.kind == .text, let position = ContactRecordCodec.recordFields.firstIndex(of: field) else {
                    return nil
                }
                allPositions.append(position)
                mask |= 1 << UInt64(position)
            }
            appends.append(Appender(append: spec.append))
            starts.append(allPositions.count)
        }
        guard !appends.isEmpty else { return nil }
        self.appends = .allocate(capacity: appends.count)
        self.appends.initialize(from: appends, count: appends.count)
        specCount = appends.count
        positions = .allocate(capacity: max(allPositions.count, 1))
        positions.initialize(from: allPositions, count: allPositions.count)
        firstPosition = .allocate(capacity: starts.count)
        firstPosition.initialize(from: starts, count: starts.count)
        self.mask = mask
        let count = 2 * ContactRecordCodec.recordFields.count
        ranges = UnsafeMutablePointer<Int>.allocate(capacity: count)
        ranges.initialize(repeating: -1, count: count)
    }

    deinit {
        appends.deinitialize(count: specCount)
        appends.deallocate()
        ranges.deallocate()
        positions.deallocate()
        firstPosition.deallocate()
    }

    /// Appends each index's keys of the contact whose fields were captured from `json` (the bytes
    /// the check read, the ranges relative to them), each index's followed by a newline; false
    /// (having appended something) when a value cannot be read, which the check makes impossible.
    func appendKeys(json: UnsafePointer<UInt8>, to bytes: inout [UInt8]) -> Bool {
        // Index loops, not `for … in`: a debug build runs that iterator generically, per contact.
        var spec = 0
        while spec < specCount {
            let append = appends[spec].append
            var field = firstPosition[spec]
            let fieldsEnd = firstPosition[spec + 1]
            while field < fieldsEnd {
                let start = ranges[2 * positions[field]]
                let end = ranges[2 * positions[field] + 1]
                field += 1
                // Absent, null (`decodeIfPresent`: empty), or the empty string: no keys.
                guard start >= 0, json[start] == 0x22, end - start > 2 else { continue }
                let content = UnsafeBufferPointer(start: json + start + 1, count: end - start - 2)
                if memchr(content.baseAddress!, 0x5C, content.count) == nil {
                    append(content, &bytes)
                    continue
                }
                // An escape: the value `readRecord` would make, from the same bytes.
                var reader = StrictJSONReader(json + start, count: end - start)
                guard var value = try? reader.readString() else { return false }
                if !value.isEmpty { value.withUTF8 { append($0, &bytes) } }
            }
            bytes.append(0x0A)
            spec += 1
        }
        return true
    }
}
