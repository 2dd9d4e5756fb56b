import AppGroupStore
import CommandLineToolkit
import ContactsInterop
import Foundation

/// The contact field options of `add` and `update`, each declared once with its type and checks:
/// a malformed value (an impossible birthday, a phone number without a digit, an e-mail address
/// without an '@', a label one or two letters from a standard one) is a usage error at parse time.
enum ContactFieldOptions {
    static let givenName = Option<String>("--given-name", value: "G", help: "Given (first) name.")
    static let familyName = Option<String>("--family-name", value: "F", help: "Family (last) name.")
    static let middleName = Option<String>("--middle-name", value: "M", help: "Middle name.")
    static let nickname = Option<String>("--nickname", value: "N", help: "Nickname.")
    static let organization = Option<String>("--organization", value: "O", help: "Organization name.")
    static let department = Option<String>("--department", value: "D", help: "Department name.")
    static let jobTitle = Option<String>("--job-title", value: "T", help: "Job title.")
    static let phone = Option<ContactRecord.LabeledString>(
        "--phone", value: "[LABEL=]NUMBER", repeatable: true,
        help: "Phone number (labels: mobile, home, work, main, iphone, pager, other, …).",
        convert: { text, name in
            try labeled(text, option: name, defaultLabel: ContactLabel.phoneNumberMobile) { value in
                guard value.contains(where: \.isNumber) else {
                    throw UsageError("option '\(name)' needs a number with at least one digit, got '\(value)'")
                }
            }
        })
    static let email = Option<ContactRecord.LabeledString>(
        "--email", value: "[LABEL=]ADDRESS", repeatable: true,
        help: "E-mail address (labels: home, work, icloud, other, …).",
        convert: { text, name in
            try labeled(text, option: name, defaultLabel: ContactLabel.home) { value in
                let parts = value.split(separator: "@", omittingEmptySubsequences: false)
                guard parts.count >= 2, !parts[0].isEmpty, !parts[parts.count - 1].isEmpty else {
                    throw UsageError("option '\(name)' needs an address like name@example.com, got '\(value)'")
                }
            }
        })
    static let url = Option<ContactRecord.LabeledString>(
        "--url", value: "[LABEL=]URL", repeatable: true, help: "URL (labels: homepage, home, work, other).",
        convert: { text, name in try labeled(text, option: name, defaultLabel: ContactLabel.urlAddressHomePage) { _ in }
        })
    static let note = Option<String>("--note", value: "TEXT", help: "Note.")
    static let birthday = Option<String>(
        "--birthday", value: "YYYY-MM-DD", help: "Birthday (or --MM-DD without a year).", convert: checkedBirthday)
    /// `add --id`.
    static let identifier = Option<String>(
        "--id", value: "ID", help: "Use this identifier (must not exist yet).",
        convert: { text, name in
            do { try IdentifierRules.validate(text) } catch { throw UsageError("option '\(name)': \(error)") }
            return text
        })

    /// Every field option, in help order.
    static let all: [any OptionDeclaration] = [
        givenName, familyName, middleName, nickname, organization, department, jobTitle, phone, email, url, note,
        birthday,
    ]

    /// `[LABEL=]VALUE` as a labeled value: the value must not be blank and must pass `check`; a
    /// label that looks like a misspelt standard one is refused.
    private static func labeled(
        _ text: String, option: String, defaultLabel: String, check: (String) throws -> Void
    ) throws -> ContactRecord.LabeledString {
        let given = Labels.labeled(text, defaultLabel: "")
        if given.value.trimmingCharacters(in: .whitespaces).isEmpty {
            throw UsageError("option '\(option)' needs a non-empty value, got '\(text)'")
        }
        try check(given.value)
        if let label = given.label, !label.isEmpty, let typo = Labels.likelyMisspelling(label) {
            throw UsageError(
                "option '\(option)': label '\(label)' looks like a misspelt '\(typo)'; write '\(typo)=' "
                    + "(a custom label must not be one or two letters away from a standard one)")
        }
        return Labels.labeled(text, defaultLabel: defaultLabel)
    }

    /// A birthday `YYYY-MM-DD` or `--MM-DD` that exists (no 30 February; 29 February only in a leap
    /// year, or without a year).
    private static func checkedBirthday(_ text: String, option: String) throws -> String {
        guard let date = BirthdayFormat.parse(text) else {
            throw UsageError("option '\(option)' expects YYYY-MM-DD or --MM-DD, got '\(text)'")
        }
        guard date.day <= daysIn(month: date.month, year: date.year) else {
            throw UsageError(
                "option '\(option)': \(text) is not a date (\(monthNames[date.month - 1]) has no day \(date.day)"
                    + (date.year.map { " in \($0)" } ?? "") + ")")
        }
        return text
    }

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    /// Days in `month` (1–12) of `year`; without a year February has 29 (a birthday on the 29th exists).
    private static func daysIn(month: Int, year: Int?) -> Int {
        switch month {
        case 2:
            guard let year else { return 29 }
            return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
