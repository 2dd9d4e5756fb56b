import Foundation

/// An immutable postal address.
///
/// Mirrors Apple's `CNPostalAddress`. Every field is a string, empty when unknown.
/// Use ``CNMutablePostalAddress`` to build one, and ``CNPostalAddressFormatter`` to
/// display one.
///
/// ## Equality
/// Two postal addresses are equal when all their fields are equal (Apple does not
/// document its comparison). ``hash`` is consistent with this, and a
/// ``CNMutablePostalAddress`` equals a ``CNPostalAddress`` with the same fields.
open class CNPostalAddress: NSObject, NSCopying, NSMutableCopying, NSSecureCoding {
    /// The stored fields; ``CNMutablePostalAddress`` writes them.
    var values: CNPostalAddressValues

    /// Creates an empty postal address.
    public override init() {
        self.values = CNPostalAddressValues()
        super.init()
    }

    /// Creates a postal address holding the given fields.
    init(values: CNPostalAddressValues) {
        self.values = values
        super.init()
    }

    /// The street name and number, possibly on several lines.
    open var street: String { values.street }

    /// The subdivision of the city, such as a neighborhood or district.
    open var subLocality: String { values.subLocality }

    /// The city.
    open var city: String { values.city }

    /// The subdivision of the state, such as a county.
    open var subAdministrativeArea: String { values.subAdministrativeArea }

    /// The state or province.
    open var state: String { values.state }

    /// The postal (ZIP) code.
    open var postalCode: String { values.postalCode }

    /// The country name.
    open var country: String { values.country }

    /// The ISO 3166-1 alpha-2 country code, such as `"us"`.
    open var isoCountryCode: String { values.isoCountryCode }

    // MARK: NSSecureCoding

    /// `true`: postal addresses support secure coding.
    public class var supportsSecureCoding: Bool { true }

    /// Decodes a postal address archived by ``encode(with:)``; missing fields decode as empty.
    ///
    /// - Parameter coder: A keyed decoder.
    public required init?(coder: NSCoder) {
        var values = CNPostalAddressValues()
        for field in CNPostalAddressValues.fields {
            values[keyPath: field.path] = coder.decodeString(forKey: field.key)
        }
        self.values = values
        super.init()
    }

    /// Encodes every field with a keyed encoder.
    ///
    /// - Parameter coder: A keyed encoder.
    open func encode(with coder: NSCoder) {
        for field in CNPostalAddressValues.fields {
            coder.encode(values[keyPath: field.path] as NSString, forKey: field.key)
        }
    }

    // MARK: Copying

    /// Returns an immutable ``CNPostalAddress`` with the same fields.
    ///
    /// - Parameter zone: Ignored.
    open func copy(with zone: NSZone? = nil) -> Any {
        CNPostalAddress(values: values)
    }

    /// Returns a ``CNMutablePostalAddress`` with the same fields.
    ///
    /// - Parameter zone: Ignored.
    open func mutableCopy(with zone: NSZone? = nil) -> Any {
        CNMutablePostalAddress(values: values)
    }

    // MARK: Equality

    /// Whether `object` is a postal address with all fields equal.
    ///
    /// - Parameter object: The object to compare with.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CNPostalAddress else { return false }
        return values == other.values
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int {
        values.hashValue
    }

    /// A short description for debugging, showing the address on one line.
    open override var description: String {
        let text = CNPostalAddressFormatter.string(from: self, style: .mailingAddress)
            .replacingOccurrences(of: "\n", with: ", ")
        return "<\(type(of: self)): \(text)>"
    }
}
