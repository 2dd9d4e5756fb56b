extension ContactRecord {
    /// Every stored field of a contact: the one table the paths that carry a contact are written
    /// from (issue 29).
    ///
    /// Its order is the order the store writes fields in (Foundation's `encode(to:)` and the fast
    /// codec's writer both walk ``allCases``); its raw values are the JSON keys (the fast reader's
    /// key table is made from them, and the type is the record's `CodingKeys`). The readers, the
    /// writers and `contacts-host get`'s printer each switch over a field exhaustively, with no
    /// `default:`, so a field added here does not compile until each of them carries it; the paths
    /// that a switch cannot guard are checked field by field: the `CNContact` bridge and vCard by
    /// `RecordFieldPathsTests`, the sample generator by `RecordFieldTableHostTests`, the table
    /// against the stored properties by `RecordFieldTableTests`.
    ///
    /// Adding a field: a case here (with its ``kind`` and ``title``), the stored property in
    /// `ContactRecord`, then whatever the compiler and those tests name (`docs/architecture.md`
    /// lists the files).
    package enum Field: String, CaseIterable, CodingKey, Sendable {
        case identifier, namePrefix, givenName, middleName, familyName, nameSuffix, nickname
        case organizationName, departmentName, jobTitle, phoneNumbers, emailAddresses, postalAddresses
        case urlAddresses, note, birthday, imageData
        case contactType, previousFamilyName, phoneticGivenName, phoneticMiddleName, phoneticFamilyName
        case phoneticOrganizationName, nonGregorianBirthday, dates, contactRelations, socialProfiles
        case instantMessageAddresses

        /// The shape of a field's value, which decides how each path reads, writes and compares it.
        package enum Kind: Sendable, Equatable {
            /// The record's key: always written, never empty.
            case identifier
            /// A string, omitted when empty.
            case text
            /// `YYYY-MM-DD` or `--MM-DD` (``BirthdayFormat``), omitted when absent.
            case date
            /// Bytes, written as base64, omitted when absent.
            case data
            /// `"organization"`, omitted for a person.
            case contactType
            /// Labelled strings (phones, e-mails, URLs, relations), omitted when empty.
            case labeledStrings
            /// Labelled dates, each as ``date`` is.
            case labeledDates
            /// Labelled postal addresses.
            case postalAddresses
            /// A date in another calendar (``NonGregorianDate``).
            case nonGregorianDate
            /// Labelled social profiles.
            case socialProfiles
            /// Labelled instant-message addresses.
            case instantMessageAddresses
        }

        /// The field's shape.
        package var kind: Kind {
            switch self {
            case .identifier: .identifier
            case .namePrefix, .givenName, .middleName, .familyName, .nameSuffix, .nickname, .organizationName,
                .departmentName, .jobTitle, .note, .previousFamilyName, .phoneticGivenName, .phoneticMiddleName,
                .phoneticFamilyName, .phoneticOrganizationName:
                .text
            case .birthday: .date
            case .imageData: .data
            case .contactType: .contactType
            case .phoneNumbers, .emailAddresses, .urlAddresses, .contactRelations: .labeledStrings
            case .dates: .labeledDates
            case .postalAddresses: .postalAddresses
            case .nonGregorianBirthday: .nonGregorianDate
            case .socialProfiles: .socialProfiles
            case .instantMessageAddresses: .instantMessageAddresses
            }
        }

        /// The key the field is stored under in JSON (the store, `--json`, the pipes).
        package var key: String { rawValue }

        /// The field's name for people, as `contacts-host get` prints it (lower case, singular).
        package var title: String {
            switch self {
            case .identifier: "identifier"
            case .namePrefix: "name prefix"
            case .givenName: "given name"
            case .middleName: "middle name"
            case .familyName: "family name"
            case .nameSuffix: "name suffix"
            case .nickname: "nickname"
            case .organizationName: "organization"
            case .departmentName: "department"
            case .jobTitle: "job title"
            case .phoneNumbers: "phone"
            case .emailAddresses: "email"
            case .postalAddresses: "address"
            case .urlAddresses: "url"
            case .note: "note"
            case .birthday: "birthday"
            case .imageData: "image"
            case .contactType: "type"
            case .previousFamilyName: "previous family name"
            case .phoneticGivenName: "phonetic given name"
            case .phoneticMiddleName: "phonetic middle name"
            case .phoneticFamilyName: "phonetic family name"
            case .phoneticOrganizationName: "phonetic organization"
            case .nonGregorianBirthday: "birthday"
            case .dates: "date"
            case .contactRelations: "related"
            case .socialProfiles: "social"
            case .instantMessageAddresses: "im"
            }
        }

        /// The field's text, for the fields of kind ``Kind/text``; nil for the others.
        package func text(of record: ContactRecord) -> String? {
            switch self {
            case .namePrefix: record.namePrefix
            case .givenName: record.givenName
            case .middleName: record.middleName
            case .familyName: record.familyName
            case .nameSuffix: record.nameSuffix
            case .nickname: record.nickname
            case .organizationName: record.organizationName
            case .departmentName: record.departmentName
            case .jobTitle: record.jobTitle
            case .note: record.note
            case .previousFamilyName: record.previousFamilyName
            case .phoneticGivenName: record.phoneticGivenName
            case .phoneticMiddleName: record.phoneticMiddleName
            case .phoneticFamilyName: record.phoneticFamilyName
            case .phoneticOrganizationName: record.phoneticOrganizationName
            case .identifier, .phoneNumbers, .emailAddresses, .postalAddresses, .urlAddresses, .birthday, .imageData,
                .contactType, .nonGregorianBirthday, .dates, .contactRelations, .socialProfiles,
                .instantMessageAddresses:
                nil
            }
        }

        /// Sets a field of kind ``Kind/text``; does nothing for the others.
        package func setText(_ value: String, in record: inout ContactRecord) {
            switch self {
            case .namePrefix: record.namePrefix = value
            case .givenName: record.givenName = value
            case .middleName: record.middleName = value
            case .familyName: record.familyName = value
            case .nameSuffix: record.nameSuffix = value
            case .nickname: record.nickname = value
            case .organizationName: record.organizationName = value
            case .departmentName: record.departmentName = value
            case .jobTitle: record.jobTitle = value
            case .note: record.note = value
            case .previousFamilyName: record.previousFamilyName = value
            case .phoneticGivenName: record.phoneticGivenName = value
            case .phoneticMiddleName: record.phoneticMiddleName = value
            case .phoneticFamilyName: record.phoneticFamilyName = value
            case .phoneticOrganizationName: record.phoneticOrganizationName = value
            case .identifier, .phoneNumbers, .emailAddresses, .postalAddresses, .urlAddresses, .birthday, .imageData,
                .contactType, .nonGregorianBirthday, .dates, .contactRelations, .socialProfiles,
                .instantMessageAddresses:
                break
            }
        }

        /// The labelled strings of a field of kind ``Kind/labeledStrings`` or ``Kind/labeledDates``;
        /// nil for the others.
        package func labeledStrings(of record: ContactRecord) -> [LabeledString]? {
            switch self {
            case .phoneNumbers: record.phoneNumbers
            case .emailAddresses: record.emailAddresses
            case .urlAddresses: record.urlAddresses
            case .contactRelations: record.contactRelations
            case .dates: record.dates
            case .identifier, .namePrefix, .givenName, .middleName, .familyName, .nameSuffix, .nickname,
                .organizationName, .departmentName, .jobTitle, .postalAddresses, .note, .birthday, .imageData,
                .contactType, .previousFamilyName, .phoneticGivenName, .phoneticMiddleName, .phoneticFamilyName,
                .phoneticOrganizationName, .nonGregorianBirthday, .socialProfiles, .instantMessageAddresses:
                nil
            }
        }

        /// Sets a field of kind ``Kind/labeledStrings`` or ``Kind/labeledDates``; does nothing for the others.
        package func setLabeledStrings(_ values: [LabeledString], in record: inout ContactRecord) {
            switch self {
            case .phoneNumbers: record.phoneNumbers = values
            case .emailAddresses: record.emailAddresses = values
            case .urlAddresses: record.urlAddresses = values
            case .contactRelations: record.contactRelations = values
            case .dates: record.dates = values
            case .identifier, .namePrefix, .givenName, .middleName, .familyName, .nameSuffix, .nickname,
                .organizationName, .departmentName, .jobTitle, .postalAddresses, .note, .birthday, .imageData,
                .contactType, .previousFamilyName, .phoneticGivenName, .phoneticMiddleName, .phoneticFamilyName,
                .phoneticOrganizationName, .nonGregorianBirthday, .socialProfiles, .instantMessageAddresses:
                break
            }
        }
    }
}
