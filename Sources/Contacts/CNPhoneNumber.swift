import Foundation

/// An immutable phone number.
///
/// Mirrors Apple's `CNPhoneNumber`. The number is kept exactly as given; no parsing
/// or normalization is done.
///
/// ## Equality
/// Two phone numbers are equal when their ``stringValue``s are equal, character for
/// character (Apple does not document its comparison). ``hash`` is consistent with this.
open class CNPhoneNumber: NSObject, NSCopying, NSSecureCoding {
    /// The phone number as text, exactly as it was given, for example `"+1 (408) 555-0100"`.
    public let stringValue: String

    /// Creates a phone number from its text.
    ///
    /// - Parameter stringValue: The phone number as text.
    public init(stringValue: String) {
        self.stringValue = stringValue
        super.init()
    }

    // MARK: NSSecureCoding

    /// `true`: phone numbers support secure coding.
    public class var supportsSecureCoding: Bool { true }

    /// Decodes a phone number archived by ``encode(with:)``.
    ///
    /// - Parameter coder: A keyed decoder.
    public required init?(coder: NSCoder) {
        guard let string = coder.decodeObject(of: NSString.self, forKey: CodingKey.stringValue) else {
            return nil
        }
        self.stringValue = string as String
        super.init()
    }

    /// Encodes the phone number with a keyed encoder.
    ///
    /// - Parameter coder: A keyed encoder.
    open func encode(with coder: NSCoder) {
        coder.encode(stringValue as NSString, forKey: CodingKey.stringValue)
    }

    // MARK: NSCopying

    /// Returns this phone number: it is immutable, so the copy can be the same object.
    ///
    /// - Parameter zone: Ignored.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    // MARK: Equality

    /// Whether `object` is a phone number with the same ``stringValue``.
    ///
    /// - Parameter object: The object to compare with.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CNPhoneNumber else { return false }
        return stringValue == other.stringValue
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int {
        stringValue.hashValue
    }

    /// A short description for debugging, showing the number.
    open override var description: String {
        "<CNPhoneNumber: stringValue=\(stringValue)>"
    }

    /// The archive keys.
    private enum CodingKey {
        static let stringValue = "stringValue"
    }
}
