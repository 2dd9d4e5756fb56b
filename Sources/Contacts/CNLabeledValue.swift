import AppGroupStore
import Foundation

/// An immutable value paired with a label, such as a phone number labeled "mobile".
///
/// Mirrors Apple's `CNLabeledValue`. Labels are usually one of the `CNLabel…`
/// constants (for example ``CNLabelHome``) but may be any custom string.
///
/// Every labeled value has a stable ``identifier``; the `setting…` methods return a
/// new labeled value that keeps that identifier, as Apple's do.
///
/// The value is copied on creation (with `NSCopying`), so later changes to a mutable
/// value (for example a ``CNMutablePostalAddress``) do not leak into the labeled value.
///
/// ## Equality
/// Apple does not document how labeled values compare. This stand-in uses value
/// equality: two labeled values are equal when their labels are equal and their
/// values are equal (`isEqual(_:)`). The ``identifier`` is deliberately not part of
/// equality, so two independently created entries with the same label and value
/// compare equal. ``hash`` is consistent with this.
///
/// ## Linux
/// Unlike Apple's class, this one does not adopt `NSSecureCoding`: on Linux, Foundation
/// cannot archive instances of a generic class (`NSStringFromClass` traps), so the
/// conformance would only offer a crash. ``CNContact`` archives its labeled values
/// field by field instead.
open class CNLabeledValue<ValueType>: NSObject, NSCopying
where ValueType: NSCopying & NSSecureCoding {
    /// The identifier of this labeled value, unique among the labeled values of a contact.
    ///
    /// A fresh UUID string for a new labeled value; kept by ``settingLabel(_:)``,
    /// ``settingValue(_:)`` and ``settingLabel(_:value:)``.
    public internal(set) var identifier: String

    /// The label, such as ``CNLabelHome``, or a custom string; `nil` when unlabeled.
    public let label: String?

    /// The value, such as a ``CNPhoneNumber``, an `NSString` email address or a
    /// ``CNPostalAddress``.
    public let value: ValueType

    /// Creates a labeled value with a new identifier.
    ///
    /// - Parameters:
    ///   - label: The label, such as ``CNLabelWork``, or `nil` for no label.
    ///   - value: The value; it is copied with `copy(with:)`.
    public required init(label: String?, value: ValueType) {
        self.identifier = UniqueIdentifier.make()
        self.label = label
        self.value = (value.copy(with: nil) as? ValueType) ?? value
        super.init()
    }

    /// Returns a new labeled value with the given label, the same value and the same identifier.
    ///
    /// - Parameter label: The new label, or `nil` for no label.
    open func settingLabel(_ label: String?) -> Self {
        makeSibling(label: label, value: value)
    }

    /// Returns a new labeled value with the given value, the same label and the same identifier.
    ///
    /// - Parameter value: The new value.
    open func settingValue(_ value: ValueType) -> Self {
        makeSibling(label: label, value: value)
    }

    /// Returns a new labeled value with the given label and value and the same identifier.
    ///
    /// - Parameters:
    ///   - label: The new label, or `nil` for no label.
    ///   - value: The new value.
    open func settingLabel(_ label: String?, value: ValueType) -> Self {
        makeSibling(label: label, value: value)
    }

    /// Returns this labeled value: it is immutable, so the copy can be the same object.
    ///
    /// - Parameter zone: Ignored.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    /// Whether `object` is a labeled value with an equal label and an equal value.
    ///
    /// The ``identifier`` is not compared; see the type's discussion of equality.
    ///
    /// - Parameter object: The object to compare with.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CNLabeledValue<ValueType> else { return false }
        if other === self { return true }
        return label == other.label && Self.valuesAreEqual(value, other.value)
    }

    /// A hash consistent with ``isEqual(_:)``: it combines the label and the value.
    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(label)
        hasher.combine(Self.hashOf(value))
        return hasher.finalize()
    }

    /// A short description for debugging, showing the label and the value.
    open override var description: String {
        "<CNLabeledValue: identifier=\(identifier), label=\(label ?? "nil"), value=\(value)>"
    }

    // MARK: - Helpers

    /// Makes a labeled value of the same dynamic class that keeps this identifier.
    private func makeSibling(label: String?, value: ValueType) -> Self {
        let sibling = Self(label: label, value: value)
        sibling.identifier = identifier
        return sibling
    }

    /// Compares two values with `isEqual(_:)` when they are objects, else by identity.
    private static func valuesAreEqual(_ lhs: ValueType, _ rhs: ValueType) -> Bool {
        if let lhs = lhs as? NSObject {
            return lhs.isEqual(rhs)
        }
        return (lhs as AnyObject) === (rhs as AnyObject)
    }

    /// Hashes a value with its `hash` when it is an object, else by identity.
    private static func hashOf(_ value: ValueType) -> Int {
        if let object = value as? NSObject {
            return object.hash
        }
        return ObjectIdentifier(value as AnyObject).hashValue
    }
}
