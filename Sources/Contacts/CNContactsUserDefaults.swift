import Foundation

/// The user's Contacts settings that apps read: the sort order and the country code.
///
/// Mirrors Apple's `CNContactsUserDefaults`. On iOS the user picks the sort order in Settings › Contacts
/// and the default follows the language; the simulated user keeps iOS's default for English, "Last, First":
/// ``sortOrder`` is ``CNContactSortOrder/familyName``, so ``CNContactSortOrder/userDefault`` sorts by
/// family name. The values never change, so every instance is the same and can be shared across threads.
open class CNContactsUserDefaults: NSObject, @unchecked Sendable {
    /// The shared settings object.
    private static let sharedDefaults = CNContactsUserDefaults()

    /// The settings object (use ``shared()``, as on iOS).
    public required override init() {
        super.init()
    }

    /// The settings every app of the device reads.
    open class func shared() -> Self {
        sharedDefaults as? Self ?? self.init()
    }

    /// The user's sort order by name: always ``CNContactSortOrder/familyName`` here (iOS's default for English).
    open var sortOrder: CNContactSortOrder { .familyName }

    /// The device's region as a lowercase ISO 3166 code ("us"), from the current locale; "us" when it has none.
    open var countryCode: String {
        Locale.current.region?.identifier.lowercased() ?? "us"
    }
}
