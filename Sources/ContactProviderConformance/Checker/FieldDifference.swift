import AppGroupStore
import Foundation

/// One field of one contact that differs between what the system holds and what the data says.
public struct FieldDifference: Equatable, Sendable, CustomStringConvertible {
    /// The encoded key of the field (`phoneNumbers`, `birthday`, …).
    public var field: String
    /// The data's value as JSON (`absent` when the field is empty or missing).
    public var expected: String
    /// The system's value as JSON (`absent` when the field is empty or missing).
    public var got: String

    public var description: String { "\(field): expected \(expected), got \(got)" }

    /// The fields in which `got` differs from `expected`.
    ///
    /// Generic over the record's encoded form, so a field added to `ContactRecord` (``ConformanceContact``) later is
    /// compared without changing the kit: both records are encoded and compared key by key.
    public static func between(expected: ContactRecord, got: ContactRecord) -> [FieldDifference] {
        guard expected != got else { return [] }
        let left = fields(of: expected)
        let right = fields(of: got)
        let keys = Set(left.keys).union(right.keys).sorted()
        var differences: [FieldDifference] = []
        for key in keys where left[key] != right[key] {
            differences.append(
                FieldDifference(field: key, expected: left[key] ?? "absent", got: right[key] ?? "absent"))
        }
        if differences.isEmpty {
            // Equal encodings of unequal records: a field the encoding omits; say so rather than nothing.
            differences.append(FieldDifference(field: "(unencoded)", expected: "\(expected)", got: "\(got)"))
        }
        return differences
    }

    /// Each encoded field of `record` as compact, key-sorted JSON.
    static func fields(of record: ContactRecord) -> [String: String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(record),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        var result: [String: String] = [:]
        for (key, value) in object {
            guard
                let encoded = try? JSONSerialization.data(
                    withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
            else { continue }
            result[key] = String(decoding: encoded, as: UTF8.self)
        }
        return result
    }
}
