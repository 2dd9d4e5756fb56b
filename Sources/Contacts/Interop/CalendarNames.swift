import Foundation

/// Calendar identifiers as stored in records (`nonGregorianBirthday.calendar`): the names
/// Foundation and CLDR use, since `Calendar.Identifier` has no portable string value.
enum CalendarNames {
    private static let table: [(Calendar.Identifier, String)] = [
        (.gregorian, "gregorian"), (.buddhist, "buddhist"), (.chinese, "chinese"), (.coptic, "coptic"),
        (.ethiopicAmeteMihret, "ethiopic"), (.ethiopicAmeteAlem, "ethiopic-amete-alem"), (.hebrew, "hebrew"),
        (.iso8601, "iso8601"), (.indian, "indian"), (.islamic, "islamic"), (.islamicCivil, "islamic-civil"),
        (.japanese, "japanese"), (.persian, "persian"), (.republicOfChina, "roc"),
        (.islamicTabular, "islamic-tbla"), (.islamicUmmAlQura, "islamic-umalqura"),
    ]

    /// The stored name of `identifier`; for a calendar not in the table, its Swift name, which the
    /// record refuses to store with a message naming it (never silently another calendar).
    static func name(of identifier: Calendar.Identifier) -> String {
        table.first { $0.0 == identifier }?.1 ?? "\(identifier)"
    }

    /// The identifier stored as `name`, or nil for a name Foundation does not know.
    static func identifier(named name: String) -> Calendar.Identifier? {
        table.first { $0.1 == name }?.0
    }
}
