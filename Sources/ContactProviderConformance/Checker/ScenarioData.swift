import AppGroupStore
import ContactProviderSystem
import ContactProviderTesting
import Foundation

/// One scenario's data generator: its seeded randomness, the identifiers it has made, where it is in
/// the current data set, and where its edits go round the fields (issue 43, "the checker's structure").
///
/// A value of its own, which ``ConformanceChecker`` replaces with a fresh one as each scenario starts
/// (``init(seed:for:)``): each scenario's data, edits and identifiers depend on the seed and the
/// scenario alone, not on the scenarios that ran before it, so `--rules D2`, as a reproduce line
/// prints it, makes the very contacts and edits of the full run's D2. What lasts the whole run (the
/// results, the run-wide edit counters, the shapes of every contact the kit wrote) stays on the checker.
struct ScenarioData {
    /// The scenario's seeded randomness: every value and choice of the scenario's data comes from it.
    private(set) var random: SeededRandom
    /// What this scenario's identifiers start with (`kit-42-d2`). A scenario that is not its rule's
    /// first appends a suffix of its own (`-far-behind`), so no identifier is shared with another
    /// scenario, where a provider's memory of an earlier one could tie them together.
    var identifierPrefix: String
    /// The number of the last contact made (identifiers and shapes follow it; see ``makeContact()``).
    private(set) var nextIdentifier = 0
    /// The contact made before, and its place in the current data set (natural-key collisions).
    private(set) var previousContact: ContactRecord?
    private(set) var positionInDataSet = 0
    /// Where the next edit starts in ``FieldEdit/all`` (each scenario's edits go round the fields from the first).
    private(set) var editRotation = 0

    /// The generator before any scenario: the run's seed as it is, identifiers `kit-…`.
    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
        identifierPrefix = "kit"
    }

    /// A fresh generator for the scenario whose first rule is `rule`: its seed is the run's, salted by
    /// the rule, and its identifiers carry the rule (`kit-42-d2-…`).
    init(seed: UInt64, for rule: ConformanceRule) {
        let salt = rule.id.utf8.reduce(UInt64(0)) { $0 &* 131 &+ UInt64($1) }
        random = SeededRandom(seed: seed ^ (salt &* 0x9E37_79B9_7F4A_7C15))
        identifierPrefix = "kit-\(seed)-\(rule.id.lowercased())"
    }

    /// Starts a new data set: the natural-key collisions start again from its first contact.
    mutating func startDataSet() {
        positionInDataSet = 0
    }

    mutating func randomElement<T>(_ items: [T]) -> T? {
        items.randomElement(using: &random)
    }

    mutating func randomInt(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &random)
    }

    /// A new contact, and what makes it special (its shape, for reports): its identifier takes the
    /// next ``IdentifierShape``, and its values the next ``NaturalKeyCollision`` of the data set.
    mutating func makeContact() -> (record: ContactRecord, shape: String) {
        nextIdentifier += 1
        positionInDataSet += 1
        let given = ["Ada", "Zoë", "Jean-Luc", "Émile", "Wesley", "Ruth", "Kwame", "Mei", "Olu", "Sven"]
        let family = ["Lovelace", "Nguyen", "de Groot", "Okafor", "Müller", "Tanaka", "O'Brien", "Silva"]
        let number = nextIdentifier
        var record = ContactRecord(identifier: IdentifierShape.identifier(prefix: identifierPrefix, number: number))
        record.givenName = given.randomElement(using: &random)!
        record.familyName = family.randomElement(using: &random)!
        record.phoneNumbers = [
            .init(label: "_$!<Mobile>!$_", value: "+1 555 \(Int.random(in: 1_000_000...9_999_999, using: &random))")
        ]
        if Bool.random(using: &random) {
            record.emailAddresses = [.init(label: "_$!<Work>!$_", value: "contact\(number)@example.com")]
        }
        // Every fourth contact or so carries the less common values, so a provider that drops one is caught.
        if Int.random(in: 0..<4, using: &random) == 0 {
            record.phoneticGivenName = record.givenName.lowercased()
            record.previousFamilyName = "Née"
            record.dates = [.init(label: "_$!<Anniversary>!$_", value: "--06-21")]
            record.contactRelations = [.init(label: "_$!<Manager>!$_", value: "Grace Hopper")]
            var profile = ContactRecord.LabeledSocialProfile(label: nil)
            profile.service = "Twitter"
            profile.username = "kit\(number)"
            record.socialProfiles = [profile]
            record.instantMessageAddresses = [.init(label: "_$!<Home>!$_", username: "kit\(number)", service: "Skype")]
            record.nonGregorianBirthday = .init(
                calendar: "chinese", era: 78, year: 40, month: 3, day: 15, isLeapMonth: false)
        }
        let collision = NaturalKeyCollision.at(position: positionInDataSet)
        switch collision {
        case .none: break
        case .namesake:
            if let previous = previousContact {
                record.givenName = previous.givenName
                record.familyName = previous.familyName
            }
        case .organisationOnly, .secondOrganisationOnly:
            record.givenName = ""
            record.familyName = ""
            record.organizationName =
                ["Acme Corporation", "Globex", "Initech"].randomElement(using: &random)!
                + " \(number)"
            record.contactType = "organization"
        case .samePhone:
            if let phone = previousContact?.phoneNumbers.first { record.phoneNumbers = [phone] }
        }
        previousContact = record
        let shape = "identifier \(IdentifierShape.of(number: number))" + (collision == .none ? "" : "; \(collision)")
        return (record, shape)
    }

    /// The next edit of the rotation: its salt (the new values' seed) and the first field in
    /// ``FieldEdit/all`` it tries (see ``ConformanceChecker/edit(_:salt:startingAt:)``, which knows
    /// which fields the backend's store holds).
    mutating func nextEdit() -> (salt: Int, start: Int) {
        let salt = Int.random(in: 0...1_000_000, using: &random)
        editRotation += 1
        return (salt, editRotation - 1)
    }
}
