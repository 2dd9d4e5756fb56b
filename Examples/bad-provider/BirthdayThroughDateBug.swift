// The bug: the provider turns the app's stored birthday ("1906-12-09", saved as midnight UTC) into
// a `Date` and back into day, month and year with `Calendar.current`, the device's calendar in the
// device's time zone. In UTC (a developer's Mac set to London in winter, every CI machine) nothing
// shows; west of UTC every birthday moves to the day before. Caught by F1 once the kit runs the
// provider in another time zone (issue 30, item 8).

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class BirthdayThroughDateEnumerator: ItemTransformingEnumerator {
    override func transform(_ items: [ContactItem]) -> [ContactItem] {
        let stored = DateFormatter()
        stored.locale = Locale(identifier: "en_US_POSIX")
        stored.timeZone = TimeZone(identifier: "UTC")
        stored.dateFormat = "yyyy-MM-dd"
        return items.map { item in
            var record = ContactRecord(item)
            guard let birthday = record.birthday, let date = stored.date(from: birthday) else { return item }
            let parts = Calendar.current.dateComponents([.year, .month, .day], from: date)
            record.birthday = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
            return record.makeItem()
        }
    }
}
