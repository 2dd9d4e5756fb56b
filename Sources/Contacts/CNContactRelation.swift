import Foundation

/// An immutable related person, such as a contact's manager or sister, by name.
///
/// Mirrors Apple's `CNContactRelation`; labels are the `CNLabelContactRelation…` constants.
/// Two relations are equal when their names are.
open class CNContactRelation: NSObject, NSCopying, NSSecureCoding {
    /// The related person's name.
    public let name: String

    /// A relation to the person called `name`.
    public init(name: String) {
        self.name = name
        super.init()
    }

    /// A relation to the person called `name` (Apple's class factory).
    public class func contactRelation(withName name: String) -> CNContactRelation {
        CNContactRelation(name: name)
    }

    /// `true`: relations support secure coding.
    public class var supportsSecureCoding: Bool { true }

    /// Decodes a relation archived by ``encode(with:)``.
    public required init?(coder: NSCoder) {
        guard let name = coder.decodeOptionalString(forKey: "name") else { return nil }
        self.name = name
        super.init()
    }

    /// Encodes the name with a keyed encoder.
    open func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
    }

    /// Returns this relation: it is immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// Whether `object` is a relation with the same name.
    open override func isEqual(_ object: Any?) -> Bool {
        (object as? CNContactRelation)?.name == name
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int { name.hashValue }
}
