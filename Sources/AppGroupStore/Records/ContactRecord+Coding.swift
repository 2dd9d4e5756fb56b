import Foundation

/// The record as JSON through Foundation, field by field in the table's order (`ContactRecord.Field`).
extension ContactRecord {
    /// The record's keys are its fields (``Field``): one table for every path that carries a contact.
    typealias CodingKeys = Field

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Field.self)
        self.init(identifier: try c.decode(String.self, forKey: .identifier))
        for field in Field.allCases {
            // Exhaustive on purpose (no default): a field added to the table is read here or the build fails.
            switch field {
            case .identifier: break  // read above
            case .namePrefix, .givenName, .middleName, .familyName, .nameSuffix, .nickname, .organizationName,
                .departmentName, .jobTitle, .note, .previousFamilyName, .phoneticGivenName, .phoneticMiddleName,
                .phoneticFamilyName, .phoneticOrganizationName:
                if let text = try c.decodeIfPresent(String.self, forKey: field) { field.setText(text, in: &self) }
            case .phoneNumbers, .emailAddresses, .urlAddresses, .contactRelations:
                if let values = try c.decodeIfPresent([LabeledString].self, forKey: field) {
                    field.setLabeledStrings(values, in: &self)
                }
            case .dates:
                dates = try c.decodeIfPresent([LabeledString].self, forKey: .dates) ?? []
                if let bad = dates.first(where: { BirthdayFormat.parse($0.value) == nil }) {
                    throw DecodingError.dataCorruptedError(
                        forKey: .dates, in: c, debugDescription: "date '\(bad.value)' is not YYYY-MM-DD or --MM-DD")
                }
            case .postalAddresses:
                postalAddresses = try c.decodeIfPresent([LabeledPostalAddress].self, forKey: .postalAddresses) ?? []
            case .birthday:
                birthday = try c.decodeIfPresent(String.self, forKey: .birthday)
                if let birthday, BirthdayFormat.parse(birthday) == nil {
                    throw DecodingError.dataCorruptedError(
                        forKey: .birthday, in: c,
                        debugDescription: "birthday '\(birthday)' is not YYYY-MM-DD or --MM-DD")
                }
            case .imageData:
                imageData = try c.decodeIfPresent(Data.self, forKey: .imageData)
            case .contactType:
                contactType = try c.decodeIfPresent(String.self, forKey: .contactType)
                if let contactType, !Self.contactTypes.contains(contactType) {
                    throw DecodingError.dataCorruptedError(
                        forKey: .contactType, in: c,
                        debugDescription: "contactType '\(contactType)' is not person or organization")
                }
                if contactType == "person" { contactType = nil }
            case .nonGregorianBirthday:
                nonGregorianBirthday = try c.decodeIfPresent(NonGregorianDate.self, forKey: .nonGregorianBirthday)
            case .socialProfiles:
                socialProfiles = try c.decodeIfPresent([LabeledSocialProfile].self, forKey: .socialProfiles) ?? []
            case .instantMessageAddresses:
                instantMessageAddresses =
                    try c.decodeIfPresent([LabeledInstantMessageAddress].self, forKey: .instantMessageAddresses)
                    ?? []
            }
        }
    }

    /// The values `contactType` may have (`person` is written as nothing).
    static let contactTypes: Set<String> = ["person", "organization"]

    /// Absent and empty values are omitted, so records stay small on disk and in `--json` output.
    /// Fields are written in the table's order (``Field``), as the store's fast writer writes them.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Field.self)
        for field in Field.allCases {
            // Exhaustive on purpose (no default): a field added to the table is written here or the build fails.
            switch field {
            case .identifier: try c.encode(identifier, forKey: .identifier)
            case .namePrefix, .givenName, .middleName, .familyName, .nameSuffix, .nickname, .organizationName,
                .departmentName, .jobTitle, .note, .previousFamilyName, .phoneticGivenName, .phoneticMiddleName,
                .phoneticFamilyName, .phoneticOrganizationName:
                if let text = field.text(of: self), !text.isEmpty { try c.encode(text, forKey: field) }
            case .phoneNumbers, .emailAddresses, .urlAddresses, .contactRelations:
                if let values = field.labeledStrings(of: self), !values.isEmpty { try c.encode(values, forKey: field) }
            case .dates:
                // Never write what `init(from:)` refuses to read: one such line would make the whole store unreadable.
                if let bad = dates.first(where: { BirthdayFormat.parse($0.value) == nil }) {
                    throw Self.invalid(bad.value, field, c, "date '\(bad.value)' is not YYYY-MM-DD or --MM-DD")
                }
                if !dates.isEmpty { try c.encode(dates, forKey: .dates) }
            case .postalAddresses:
                if !postalAddresses.isEmpty { try c.encode(postalAddresses, forKey: .postalAddresses) }
            case .birthday:
                if let birthday, BirthdayFormat.parse(birthday) == nil {
                    throw Self.invalid(birthday, field, c, "birthday '\(birthday)' is not YYYY-MM-DD or --MM-DD")
                }
                try c.encodeIfPresent(birthday, forKey: .birthday)
            case .imageData:
                try c.encodeIfPresent(imageData, forKey: .imageData)
            case .contactType:
                if let contactType, !Self.contactTypes.contains(contactType) {
                    throw Self.invalid(
                        contactType, field, c, "contactType '\(contactType)' is not person or organization")
                }
                if let contactType, contactType != "person" { try c.encode(contactType, forKey: .contactType) }
            case .nonGregorianBirthday:
                try c.encodeIfPresent(nonGregorianBirthday, forKey: .nonGregorianBirthday)
            case .socialProfiles:
                if !socialProfiles.isEmpty { try c.encode(socialProfiles, forKey: .socialProfiles) }
            case .instantMessageAddresses:
                if !instantMessageAddresses.isEmpty {
                    try c.encode(instantMessageAddresses, forKey: .instantMessageAddresses)
                }
            }
        }
    }

    /// The error `encode(to:)` throws for a value `init(from:)` would refuse.
    private static func invalid(
        _ value: String, _ field: Field, _ container: KeyedEncodingContainer<Field>, _ description: String
    ) -> EncodingError {
        EncodingError.invalidValue(
            value, EncodingError.Context(codingPath: container.codingPath + [field], debugDescription: description))
    }
}
