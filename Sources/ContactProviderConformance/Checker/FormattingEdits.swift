import AppGroupStore
import Foundation

/// D2, issue 43 class 3: edits that change only formatting. A provider whose change detection
/// compares case- or whitespace-insensitively (a fingerprint of lowercased, trimmed values; phone
/// numbers reduced to digits) never sends such an edit, and the system keeps the old spelling. The
/// kit's random edits change whole values, so D2 makes these three on purpose
/// (``ChangeBatchesScenario``).
struct FormattingEdit: Sendable {
    /// The change, in words.
    var change: String
    /// Changes the formatting of one value of `record`, keeping its letters and digits.
    var apply: @Sendable (inout ContactRecord) -> Void

    static let all: [FormattingEdit] = [
        FormattingEdit(change: "given name capitalisation only") { record in
            let name = record.givenName
            record.givenName = name.lowercased() != name ? name.lowercased() : name.uppercased()
        },
        FormattingEdit(change: "family name spacing only") { record in
            let name = record.familyName
            if name.contains(" ") {
                record.familyName = name.replacingOccurrences(of: " ", with: "  ")
            } else if name.count > 1 {
                record.familyName = String(name.prefix(name.count / 2)) + " " + String(name.dropFirst(name.count / 2))
            }
        },
        FormattingEdit(change: "phone number punctuation only") { record in
            guard var phone = record.phoneNumbers.first else { return }
            phone.value =
                phone.value.contains("-")
                ? phone.value.replacingOccurrences(of: "-", with: " ")
                : phone.value.replacingOccurrences(of: " ", with: "-")
            record.phoneNumbers[0] = phone
        },
    ]
}
