// swift-format-ignore-file
// Seed 000, "Step 3": the bean class. Code as written; the article's `import UIKit` is left out
// (UIKit does not exist on Linux, and the class uses nothing of it).
import Foundation

public class ContactBean: NSObject 
{
    var firstName:String?
    var lastName: String?
    var mobileNumber: String?
    var email: String?
    
    init(firstName:String?, lastName:String?,mobileNumber:String?,email:String?) 
    {
        self.firstName = firstName
        self.lastName = lastName
        self.mobileNumber = mobileNumber
        self.email = email
    }
}
