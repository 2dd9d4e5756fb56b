import Foundation

extension NSCoder {
    /// Decodes a string archived as an `NSString`; empty when the key is missing.
    func decodeString(forKey key: String) -> String {
        decodeOptionalString(forKey: key) ?? ""
    }

    /// Decodes a string archived as an `NSString`; `nil` when the key is missing.
    func decodeOptionalString(forKey key: String) -> String? {
        // Checked first: on Linux decoding a missing key fails the whole unarchiving.
        guard containsValue(forKey: key) else { return nil }
        return decodeObject(of: NSString.self, forKey: key).map { $0 as String }
    }

    /// Encodes a string as an `NSString`, or nothing when it is `nil`.
    func encodeOptionalString(_ string: String?, forKey key: String) {
        if let string {
            encode(string as NSString, forKey: key)
        }
    }
}
