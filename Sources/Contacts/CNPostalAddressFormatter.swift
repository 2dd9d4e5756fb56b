import Foundation

/// The ways a ``CNPostalAddressFormatter`` can lay out an address.
///
/// Mirrors Apple's `CNPostalAddressFormatterStyle`; the raw values match Apple's.
public enum CNPostalAddressFormatterStyle: Int, Sendable {
    /// A multi-line address suitable for an envelope.
    case mailingAddress = 0
}

/// Formats a ``CNPostalAddress`` as text.
///
/// Mirrors Apple's `CNPostalAddressFormatter`, with one fixed, US-style layout
/// (Apple adapts the layout to the address's country):
///
/// ```
/// street
/// city state postalCode
/// country
/// ```
///
/// Empty fields are skipped, and a line with nothing on it is left out.
open class CNPostalAddressFormatter: Formatter {
    /// The layout this formatter produces; ``CNPostalAddressFormatterStyle/mailingAddress`` by default.
    open var style: CNPostalAddressFormatterStyle = .mailingAddress

    /// Creates a formatter with the ``CNPostalAddressFormatterStyle/mailingAddress`` style.
    public override init() {
        super.init()
    }

    /// Decodes a formatter; the style is restored when it was archived.
    ///
    /// - Parameter coder: A keyed decoder.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        let raw = coder.decodeInteger(forKey: "style")
        style = CNPostalAddressFormatterStyle(rawValue: raw) ?? .mailingAddress
    }

    /// Encodes the formatter's style with a keyed encoder.
    ///
    /// - Parameter coder: A keyed encoder.
    open override func encode(with coder: NSCoder) {
        coder.encode(style.rawValue, forKey: "style")
    }

    /// Formats an address in the given style.
    ///
    /// - Parameters:
    ///   - postalAddress: The address to format.
    ///   - style: The layout.
    /// - Returns: The address as text; empty when every field is empty.
    open class func string(from postalAddress: CNPostalAddress, style: CNPostalAddressFormatterStyle) -> String {
        switch style {
        case .mailingAddress:
            let cityLine = [postalAddress.city, postalAddress.state, postalAddress.postalCode]
                .filter { !$0.isEmpty }
                .joined(separator: " ")
            return [postalAddress.street, cityLine, postalAddress.country]
                .filter { !$0.isEmpty }
                .joined(separator: "\n")
        }
    }

    /// Formats an address in this formatter's ``style``.
    ///
    /// - Parameter postalAddress: The address to format.
    /// - Returns: The address as text.
    open func string(from postalAddress: CNPostalAddress) -> String {
        Self.string(from: postalAddress, style: style)
    }

    /// Formats `obj` when it is a ``CNPostalAddress``; `nil` otherwise.
    ///
    /// - Parameter obj: The object to format.
    open override func string(for obj: Any?) -> String? {
        guard let address = obj as? CNPostalAddress else { return nil }
        return string(from: address)
    }
}
