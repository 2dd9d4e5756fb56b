import AppGroupStore
import Foundation

/// D2, issue 43 class 3: edits that change only formatting. A provider whose change detection
/// compares case- or whitespace-insensitively (a fingerprint of lowercased, trimmed values; phone
/// numbers reduced to digits) never sends such an edit, and the system keeps the old spelling. The
/// kit's random edits change whole values, so D2 makes these three on purpose.
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

extension ConformanceChecker {
    /// Makes each ``FormattingEdit`` on its own contact (the first by identifier whose value it changes
    /// in the backend's store); returns the contacts changed, with the change in words.
    @discardableResult
    func makeFormattingEdits() throws -> [(identifier: String, change: String)] {
        let contacts = try backend.contacts().sorted { $0.identifier < $1.identifier }
        var made: [(identifier: String, change: String)] = []
        var used: Set<String> = []
        for edit in FormattingEdit.all {
            // The first contact not edited yet whose value this edit changes in the store (an
            // organisation card has no given name to capitalise).
            for contact in contacts where !used.contains(contact.identifier) {
                var copy = contact
                edit.apply(&copy)
                guard backend.comparable(copy) != backend.comparable(contact) else { continue }
                try backend.update(copy)
                let shape = contactShapes[contact.identifier].map { $0 + "; " } ?? ""
                contactShapes[contact.identifier] = shape + "edited: \(edit.change)"
                used.insert(contact.identifier)
                made.append((contact.identifier, edit.change))
                break
            }
        }
        return made
    }
}
