// swift-format-ignore-file
// Not from the seed: what seed 000's ContactUtility uses but the article never shows (its
// `arrContactsDicts` property and `getFinalNumber(_:compilationClosure:)`), written here so the
// article's members compile. The number is the phone number's digits (and a leading +).
import Contacts

private let articleContactsDicts = NSMutableArray()

extension ContactUtility {
    var arrContactsDicts: NSMutableArray { articleContactsDicts }

    func getFinalNumber(_ phoneNumber: CNLabeledValue<CNPhoneNumber>, compilationClosure: (String) -> Void) {
        let digits = phoneNumber.value.stringValue.filter { $0.isNumber || $0 == "+" }
        compilationClosure(digits)
    }
}
