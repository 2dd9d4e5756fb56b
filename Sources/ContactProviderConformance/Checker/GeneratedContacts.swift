import AppGroupStore
import Foundation

/// The natural-key collisions every data set holds (issue 30, item 9), by a contact's place in it.
///
/// A provider that de-duplicates by a name, a phone number or a display name merges different
/// contacts; random data has such pairs only by chance, so the kit always makes them, within the
/// first page (the kit's pages hold four).
enum NaturalKeyCollision: Int, CaseIterable, CustomStringConvertible {
    /// A contact of its own.
    case none
    /// The same given and family name as the contact before.
    case namesake
    /// An organisation card: no person name.
    case organisationOnly
    /// A second organisation card without a person name (both have an empty person name).
    case secondOrganisationOnly
    /// The same phone number as the contact before (a shared family or office line).
    case samePhone

    /// The collision of the contact at `position` (1, 2, …) of a data set.
    static func at(position: Int) -> NaturalKeyCollision {
        allCases[(position - 1) % allCases.count]
    }

    var description: String {
        switch self {
        case .none: return "a contact of its own"
        case .namesake: return "the same name as another contact"
        case .organisationOnly, .secondOrganisationOnly: return "an organisation card without a person name"
        case .samePhone: return "the same phone number as another contact"
        }
    }
}

/// One way the kit edits a contact: a field and a new value for it.
struct FieldEdit: Sendable {
    /// The field, in words (`note`, `phone number`).
    var field: String
    /// Writes a new value (varied by `salt`) into the field.
    var apply: @Sendable (inout ContactRecord, Int) -> Void

    /// The fields the kit edits, one at a time and in turn; a backend holds some of them (item 11).
    static let all: [FieldEdit] = [
        FieldEdit(field: "note") { $0.note = "edit \($1)" },
        FieldEdit(field: "phone number") { record, salt in
            setFirst(&record.phoneNumbers, to: "+1 555 \(1_000_000 + salt % 9_000_000)", label: "_$!<Mobile>!$_")
        },
        FieldEdit(field: "family name") { $0.familyName = "Renamed \($1)" },
        FieldEdit(field: "job title") { $0.jobTitle = "Title \($1)" },
        FieldEdit(field: "email address") { record, salt in
            setFirst(&record.emailAddresses, to: "edit\(salt)@example.org", label: "_$!<Work>!$_")
        },
        FieldEdit(field: "given name") { $0.givenName = "Edited \($1)" },
        FieldEdit(field: "organization name") { $0.organizationName = "Org \($1)" },
    ]

    /// The first value of `values` becomes `value`; an empty list gets one, labelled `label`.
    private static func setFirst(_ values: inout [ContactRecord.LabeledString], to value: String, label: String) {
        if values.isEmpty {
            values = [.init(label: label, value: value)]
        } else {
            values[0].value = value
        }
    }
}

extension ConformanceChecker {
    /// A new contact of the running scenario (``ScenarioData/makeContact()``); its shape is kept for
    /// the reports.
    func makeContact() -> ContactRecord {
        let (record, shape) = scenarioData.makeContact()
        contactShapes[record.identifier] = shape
        return record
    }

    /// Applies a random mix of updates, deletions and additions; returns how many changes were made.
    @discardableResult
    func mutate(updates: Int, deletes: Int, adds: Int) throws -> Int {
        var current = try backend.contacts()
        var changes = 0
        for _ in 0..<updates {
            guard let victim = randomElement(current) else { break }
            try backend.update(edited(victim))
            changes += 1
        }
        for _ in 0..<deletes {
            guard let victim = randomElement(current) else { break }
            try backend.delete(identifier: victim.identifier)
            current.removeAll { $0.identifier == victim.identifier }
            changes += 1
        }
        for _ in 0..<adds {
            try backend.add(makeContact())
            changes += 1
        }
        return changes
    }

    /// A changed copy of `record`: the next field in ``FieldEdit/all`` that the backend's store holds
    /// gets a new value, so the edit is a real change through every backend.
    func edited(_ record: ContactRecord) -> ContactRecord {
        let (salt, start) = scenarioData.nextEdit()
        return edit(record, salt: salt, startingAt: start)
    }

    /// `record` with one held field changed: the first in ``FieldEdit/all`` from `start` on whose
    /// change the backend's ``ConformanceBackend/comparable(_:)`` sees. Counts the edit, and whether
    /// any field changed (a run whose edits all were no-ops checked no change: see ``recordNoOpEdits()``).
    func edit(_ record: ContactRecord, salt: Int, startingAt start: Int) -> ContactRecord {
        editsMade += 1
        let before = backend.comparable(record)
        for offset in 0..<FieldEdit.all.count {
            var copy = record
            FieldEdit.all[(start + offset) % FieldEdit.all.count].apply(&copy, salt)
            if backend.comparable(copy) != before {
                editsThatChangedTheStore += 1
                return copy
            }
        }
        var copy = record
        FieldEdit.all[0].apply(&copy, salt)
        return copy
    }

    /// Fails D2 when the kit edited contacts and no edit changed a field the backend's store holds:
    /// the change rules then checked nothing (item 11).
    func recordNoOpEdits() {
        guard editsMade > 0, editsThatChangedTheStore == 0 else { return }
        let fields = FieldEdit.all.map(\.field).joined(separator: ", ")
        record(
            .d2,
            Finding(
                explanation:
                    "none of the kit's \(editsMade) edits changed a field the backend's store holds (it tried \(fields)), so no change was checked: give the backend a store, or a comparable(_:), that keeps at least one of them",
                step: "every edit"))
    }
}
