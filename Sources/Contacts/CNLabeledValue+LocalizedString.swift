import ContactsInterop
import Foundation

extension CNLabeledValue {
    /// Returns a human-readable form of a label, for display.
    ///
    /// Apple's predefined labels map to the English strings the Contacts app shows:
    /// ``CNLabelHome`` → "home", ``CNLabelPhoneNumberMobile`` → "mobile",
    /// ``CNLabelPhoneNumberHomeFax`` → "home fax", and so on. Custom labels are
    /// returned unchanged. This stand-in always answers in English.
    ///
    /// Call it as on iOS, naming any value type: `CNLabeledValue<NSString>.localizedString(forLabel: label)`.
    ///
    /// - Parameter label: A label, usually one of the `CNLabel…` constants.
    /// - Returns: The display string for the label.
    public class func localizedString(forLabel label: String) -> String {
        ContactLabel.localizedName(for: label)
    }
}
