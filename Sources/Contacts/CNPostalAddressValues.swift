/// The stored fields of a ``CNPostalAddress``, kept together so that copying,
/// comparing, hashing and archiving treat every field alike.
struct CNPostalAddressValues: Hashable, Sendable {
    var street = ""
    var subLocality = ""
    var city = ""
    var subAdministrativeArea = ""
    var state = ""
    var postalCode = ""
    var country = ""
    var isoCountryCode = ""

    /// Every field with its archive key, in a fixed order.
    /// Computed rather than stored, because key paths are not `Sendable`.
    static var fields: [(key: String, path: WritableKeyPath<CNPostalAddressValues, String>)] {
        [
            ("street", \.street),
            ("subLocality", \.subLocality),
            ("city", \.city),
            ("subAdministrativeArea", \.subAdministrativeArea),
            ("state", \.state),
            ("postalCode", \.postalCode),
            ("country", \.country),
            ("isoCountryCode", \.isoCountryCode),
        ]
    }
}
