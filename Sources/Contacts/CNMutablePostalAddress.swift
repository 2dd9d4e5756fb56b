import Foundation

/// A postal address whose fields can be changed.
///
/// Mirrors Apple's `CNMutablePostalAddress`. Labeled values copy their value, so a
/// mutable address stored in a ``CNLabeledValue`` is frozen at that moment.
open class CNMutablePostalAddress: CNPostalAddress {
    /// The street name and number, possibly on several lines.
    open override var street: String {
        get { values.street }
        set { values.street = newValue }
    }

    /// The subdivision of the city, such as a neighborhood or district.
    open override var subLocality: String {
        get { values.subLocality }
        set { values.subLocality = newValue }
    }

    /// The city.
    open override var city: String {
        get { values.city }
        set { values.city = newValue }
    }

    /// The subdivision of the state, such as a county.
    open override var subAdministrativeArea: String {
        get { values.subAdministrativeArea }
        set { values.subAdministrativeArea = newValue }
    }

    /// The state or province.
    open override var state: String {
        get { values.state }
        set { values.state = newValue }
    }

    /// The postal (ZIP) code.
    open override var postalCode: String {
        get { values.postalCode }
        set { values.postalCode = newValue }
    }

    /// The country name.
    open override var country: String {
        get { values.country }
        set { values.country = newValue }
    }

    /// The ISO 3166-1 alpha-2 country code, such as `"us"`.
    open override var isoCountryCode: String {
        get { values.isoCountryCode }
        set { values.isoCountryCode = newValue }
    }
}
