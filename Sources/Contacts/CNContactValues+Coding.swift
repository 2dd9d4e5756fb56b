import AppGroupStore
import Foundation

// Keyed archiving of a contact's values.
//
// Labeled values are archived field by field ("phoneNumbers.count",
// "phoneNumbers.0.identifier", "phoneNumbers.0.label", "phoneNumbers.0.value", …)
// rather than as `CNLabeledValue` objects, because Foundation on Linux cannot
// archive instances of a generic class.

extension CNContactValues {
    /// Decodes values archived by ``encode(with:)``.
    init(decodingFrom coder: NSCoder) {
        self.init(identifier: coder.decodeOptionalString(forKey: "identifier") ?? UniqueIdentifier.make())
        contactType = CNContactType(rawValue: coder.decodeInteger(forKey: "contactType")) ?? .person
        for field in Self.stringFields {
            self[keyPath: field.path] = coder.decodeString(forKey: field.key)
        }
        // Optional values are looked up first: on Linux decoding a missing object key fails the whole decode.
        if coder.containsValue(forKey: "birthday"),
            let birthday = coder.decodeObject(of: NSDateComponents.self, forKey: "birthday")
        {
            self.birthday = Self.restoringLeapMonth(birthday, coder: coder, key: "birthday")
        }
        if coder.containsValue(forKey: "nonGregorianBirthday"),
            let date = coder.decodeObject(of: NSDateComponents.self, forKey: "nonGregorianBirthday")
        {
            nonGregorianBirthday = Self.restoringLeapMonth(date, coder: coder, key: "nonGregorianBirthday")
        }
        if coder.containsValue(forKey: "imageData") {
            imageData = coder.decodeObject(of: NSData.self, forKey: "imageData").map { Data($0) }
        }
        phoneNumbers = Self.decodeLabeledValues(forKey: "phoneNumbers", from: coder)
        emailAddresses = Self.decodeLabeledValues(forKey: "emailAddresses", from: coder)
        postalAddresses = Self.decodeLabeledValues(forKey: "postalAddresses", from: coder)
        urlAddresses = Self.decodeLabeledValues(forKey: "urlAddresses", from: coder)
        dates = Self.decodeLabeledValues(forKey: "dates", from: coder)
        contactRelations = Self.decodeLabeledValues(forKey: "contactRelations", from: coder)
        socialProfiles = Self.decodeLabeledValues(forKey: "socialProfiles", from: coder)
        instantMessageAddresses = Self.decodeLabeledValues(forKey: "instantMessageAddresses", from: coder)
    }

    /// Encodes every value with a keyed encoder.
    func encode(with coder: NSCoder) {
        coder.encode(identifier as NSString, forKey: "identifier")
        coder.encode(contactType.rawValue, forKey: "contactType")
        for field in Self.stringFields {
            coder.encode(self[keyPath: field.path] as NSString, forKey: field.key)
        }
        if let birthday {
            coder.encode(birthday as NSDateComponents, forKey: "birthday")
            coder.encode(birthday.isLeapMonth != nil, forKey: "birthday.hasLeapMonth")
        }
        if let nonGregorianBirthday {
            coder.encode(nonGregorianBirthday as NSDateComponents, forKey: "nonGregorianBirthday")
            coder.encode(nonGregorianBirthday.isLeapMonth != nil, forKey: "nonGregorianBirthday.hasLeapMonth")
        }
        if let imageData {
            coder.encode(imageData as NSData, forKey: "imageData")
        }
        Self.encodeLabeledValues(phoneNumbers, forKey: "phoneNumbers", with: coder)
        Self.encodeLabeledValues(emailAddresses, forKey: "emailAddresses", with: coder)
        Self.encodeLabeledValues(postalAddresses, forKey: "postalAddresses", with: coder)
        Self.encodeLabeledValues(urlAddresses, forKey: "urlAddresses", with: coder)
        Self.encodeLabeledValues(dates, forKey: "dates", with: coder)
        Self.encodeLabeledValues(contactRelations, forKey: "contactRelations", with: coder)
        Self.encodeLabeledValues(socialProfiles, forKey: "socialProfiles", with: coder)
        Self.encodeLabeledValues(instantMessageAddresses, forKey: "instantMessageAddresses", with: coder)
    }

    /// Foundation on Linux decodes an unset `isLeapMonth` as `false`; put the `nil` back
    /// so a decoded birthday equals the one that was encoded.
    private static func restoringLeapMonth(
        _ components: NSDateComponents, coder: NSCoder, key: String
    ) -> DateComponents {
        var result = components as DateComponents
        if !coder.decodeBool(forKey: "\(key).hasLeapMonth") {
            result.isLeapMonth = nil
        }
        return result
    }

    /// Encodes a list of labeled values field by field under `key`.
    private static func encodeLabeledValues<Value>(
        _ list: [CNLabeledValue<Value>], forKey key: String, with coder: NSCoder
    ) {
        coder.encode(list.count, forKey: "\(key).count")
        for (index, item) in list.enumerated() {
            coder.encode(item.identifier as NSString, forKey: "\(key).\(index).identifier")
            coder.encodeOptionalString(item.label, forKey: "\(key).\(index).label")
            coder.encode(item.value, forKey: "\(key).\(index).value")
        }
    }

    /// Decodes a list of labeled values archived by ``encodeLabeledValues(_:forKey:with:)``,
    /// skipping entries whose value is missing or of the wrong class.
    private static func decodeLabeledValues<Value>(
        forKey key: String, from coder: NSCoder
    ) -> [CNLabeledValue<Value>] {
        guard let valueClass = Value.self as? AnyClass else { return [] }
        let count = coder.decodeInteger(forKey: "\(key).count")
        guard count > 0 else { return [] }
        var list: [CNLabeledValue<Value>] = []
        for index in 0..<count {
            let decoded = coder.decodeObject(of: [valueClass], forKey: "\(key).\(index).value")
            guard let value = decoded as? Value else { continue }
            let label = coder.decodeOptionalString(forKey: "\(key).\(index).label")
            let item = CNLabeledValue(label: label, value: value)
            if let identifier = coder.decodeOptionalString(forKey: "\(key).\(index).identifier") {
                item.identifier = identifier
            }
            list.append(item)
        }
        return list
    }
}
