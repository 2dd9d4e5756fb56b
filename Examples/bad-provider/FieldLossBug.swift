// The bug: a converter written for one value per field. Only the first phone number, e-mail
// address and postal address survive, and a birthday without a year is dropped (its parser wants
// a year). Contacts with one of each (most test data) look fine. Caught by F1.

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class FieldLossEnumerator: ItemTransformingEnumerator {
    override func transform(_ items: [ContactItem]) -> [ContactItem] {
        items.map { item in
            var record = ContactRecord(item)
            record.phoneNumbers = Array(record.phoneNumbers.prefix(1))
            record.emailAddresses = Array(record.emailAddresses.prefix(1))
            record.postalAddresses = Array(record.postalAddresses.prefix(1))
            if record.birthday?.hasPrefix("--") == true { record.birthday = nil }
            return record.makeItem()
        }
    }
}
