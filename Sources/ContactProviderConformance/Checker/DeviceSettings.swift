import Foundation

/// A device's time zone and language, as the provider process sees them (issue 30, item 8).
///
/// The kit's own process runs wherever the developer or CI does (UTC on CI, in English); a user's
/// device is anywhere. Dates that go through `Date`, `Calendar.current` or a `DateFormatter`
/// without a fixed time zone and locale shift or change form there, so the field rule runs again
/// on each of ``others``.
struct DeviceSettings: CustomStringConvertible, Sendable {
    /// The time zone identifier (`TZ`).
    var timeZone: String
    /// The POSIX locale (`LANG`, `LC_ALL`).
    var locale: String

    /// West and east of UTC (ten hours behind, fourteen ahead: every date shifts on one of them),
    /// each in a language other than English, one of them with another numbering system.
    static let others = [
        DeviceSettings(timeZone: "Pacific/Honolulu", locale: "de_DE.UTF-8"),
        DeviceSettings(timeZone: "Pacific/Kiritimati", locale: "ar_EG.UTF-8"),
    ]

    /// The far west of ``others`` (UTC−10) and its far east (UTC+14): 24 hours apart on the wall
    /// clock, the device crossing from east to west between two syncs (D2, issue 43 class 2).
    static var farWest: DeviceSettings { others[0] }
    static var farEast: DeviceSettings { others[1] }

    /// The provider process's environment for these settings.
    var environment: [String: String] { ["TZ": timeZone, "LANG": locale, "LC_ALL": locale] }

    var description: String { "in time zone \(timeZone) and locale \(locale)" }
}
