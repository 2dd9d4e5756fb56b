import Foundation

// The value types of a record's less common fields (CNContact's social profiles, instant
// message addresses and non-Gregorian birthday). Empty strings are omitted in JSON, as elsewhere.

extension ContactRecord {
    /// A labelled social profile (`CNLabeledValue<CNSocialProfile>`).
    public struct LabeledSocialProfile: Codable, Equatable, Hashable, Sendable {
        public var label: String?
        public var urlString: String = ""
        public var username: String = ""
        public var userIdentifier: String = ""
        /// Such as `CNSocialProfileServiceTwitter` ("Twitter").
        public var service: String = ""

        /// A profile with the given label and empty fields.
        public init(label: String?) {
            self.label = label
        }

        enum CodingKeys: String, CodingKey {
            case label, urlString, username, userIdentifier, service
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            label = try c.decodeIfPresent(String.self, forKey: .label)
            urlString = try c.decodeIfPresent(String.self, forKey: .urlString) ?? ""
            username = try c.decodeIfPresent(String.self, forKey: .username) ?? ""
            userIdentifier = try c.decodeIfPresent(String.self, forKey: .userIdentifier) ?? ""
            service = try c.decodeIfPresent(String.self, forKey: .service) ?? ""
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(label, forKey: .label)
            for (key, value) in [
                (CodingKeys.urlString, urlString), (.username, username), (.userIdentifier, userIdentifier),
                (.service, service),
            ] where !value.isEmpty {
                try c.encode(value, forKey: key)
            }
        }
    }

    /// A labelled instant message address (`CNLabeledValue<CNInstantMessageAddress>`).
    public struct LabeledInstantMessageAddress: Codable, Equatable, Hashable, Sendable {
        public var label: String?
        public var username: String
        /// Such as `CNInstantMessageServiceSkype` ("Skype").
        public var service: String

        /// An address with the given label, username and service.
        public init(label: String?, username: String, service: String) {
            self.label = label
            self.username = username
            self.service = service
        }

        enum CodingKeys: String, CodingKey {
            case label, username, service
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            label = try c.decodeIfPresent(String.self, forKey: .label)
            username = try c.decodeIfPresent(String.self, forKey: .username) ?? ""
            service = try c.decodeIfPresent(String.self, forKey: .service) ?? ""
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(label, forKey: .label)
            if !username.isEmpty { try c.encode(username, forKey: .username) }
            if !service.isEmpty { try c.encode(service, forKey: .service) }
        }
    }

    /// A date in a non-Gregorian calendar (`CNContact.nonGregorianBirthday`'s components).
    public struct NonGregorianDate: Codable, Equatable, Hashable, Sendable {
        /// The calendar's identifier as Foundation names it: `chinese`, `hebrew`, `islamic`, ….
        public var calendar: String
        public var era: Int?
        public var year: Int?
        public var month: Int
        public var day: Int
        /// Whether the month is a leap month (Chinese and Hebrew calendars); nil when unknown.
        public var isLeapMonth: Bool?

        /// A date with the given components.
        public init(calendar: String, era: Int? = nil, year: Int? = nil, month: Int, day: Int, isLeapMonth: Bool? = nil)
        {
            self.calendar = calendar
            self.era = era
            self.year = year
            self.month = month
            self.day = day
            self.isLeapMonth = isLeapMonth
        }

        enum CodingKeys: String, CodingKey {
            case calendar, era, year, month, day, isLeapMonth
        }

        /// The calendar names Foundation knows (`Calendar.Identifier`'s CLDR names).
        public static let knownCalendars: Set<String> = [
            "gregorian", "buddhist", "chinese", "coptic", "ethiopic", "ethiopic-amete-alem", "hebrew", "iso8601",
            "indian", "islamic", "islamic-civil", "japanese", "persian", "roc", "islamic-tbla", "islamic-umalqura",
        ]

        /// Why this date cannot be stored, or nil when it can.
        public var problem: String? {
            if !Self.knownCalendars.contains(calendar) {
                return
                    "nonGregorianBirthday calendar '\(calendar)' is not one of \(Self.knownCalendars.sorted().joined(separator: ", "))"
            }
            if !(1...13).contains(month) || !(1...31).contains(day) {
                return "nonGregorianBirthday \(month)-\(day) needs a month 1…13 and a day 1…31"
            }
            return nil
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            calendar = try c.decode(String.self, forKey: .calendar)
            era = try c.decodeIfPresent(Int.self, forKey: .era)
            year = try c.decodeIfPresent(Int.self, forKey: .year)
            month = try c.decode(Int.self, forKey: .month)
            day = try c.decode(Int.self, forKey: .day)
            isLeapMonth = try c.decodeIfPresent(Bool.self, forKey: .isLeapMonth)
            if let problem {
                throw DecodingError.dataCorruptedError(forKey: .calendar, in: c, debugDescription: problem)
            }
        }

        /// Never writes what `init(from:)` refuses to read: one such line would make a whole store unreadable.
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            if let problem {
                throw EncodingError.invalidValue(
                    self, EncodingError.Context(codingPath: c.codingPath, debugDescription: problem))
            }
            try c.encode(calendar, forKey: .calendar)
            try c.encodeIfPresent(era, forKey: .era)
            try c.encodeIfPresent(year, forKey: .year)
            try c.encode(month, forKey: .month)
            try c.encode(day, forKey: .day)
            try c.encodeIfPresent(isLeapMonth, forKey: .isLeapMonth)
        }
    }
}
