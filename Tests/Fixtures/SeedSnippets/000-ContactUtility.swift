// swift-format-ignore-file
// Seed 000 ("Sync PhoneBook / Contacts with Core Data in iOS Swift"), "Create ContactUtility class":
// the class as the article declares it, with the members of sections II and III (steps 1, 2 and 4) in
// its body, as the article says to place them. Code as written; the article's `import ContactsUI` and
// `import CoreData` are left out (neither exists on Linux, and these members use neither).
import Contacts

class ContactUtility: NSObject
{
    let contactStore = CNContactStore()
    static let sharedInstance:ContactUtility = 
    {
        let instance = ContactUtility()
        return instance
    }()

    func requestedForAccess(complitionHandler:@escaping ( _ accessGranted:Bool)->Void)
    {
        let authorizationStatus = CNContactStore.authorizationStatus(for: CNEntityType.contacts)
        switch authorizationStatus 
        {
            case .authorized:
                complitionHandler(true)
            case .notDetermined,.denied:
                self.contactStore.requestAccess(for: CNEntityType.contacts  ) { (access, accessError) in
                    if access{
                        complitionHandler(access)
                    }else{
                        if authorizationStatus == .denied{
                            let message="Allow access to contacts to this app using settings app"
                            DispatchQueue.main.async{
                                print(message)
                            }
                        }
                    }
            }
            default:
            complitionHandler(false)
        }
    }

    func getContact() -> [CNContact] 
    {
        var results:[CNContact] = []
        let keyToContactFetch = [CNContactGivenNameKey as CNKeyDescriptor, CNContactFamilyNameKey as CNKeyDescriptor, CNContactMiddleNameKey as CNKeyDescriptor, CNContactEmailAddressesKey as CNKeyDescriptor,CNContactPhoneNumbersKey as CNKeyDescriptor]
        let fetchRequest = CNContactFetchRequest(keysToFetch: keyToContactFetch)
        fetchRequest.sortOrder = CNContactSortOrder.userDefault
        do
        {
            try self.contactStore.enumerateContacts(with: fetchRequest, usingBlock: { (contact, stop) in
                print(contact.phoneNumbers.first?.value ?? "no")
                results.append(contact)
            })
        }
        catch let error as NSError 
        {
            print(error.localizedDescription)
        }
        return results
    }

    func createDictOfContactList(compilationClosure: @escaping (_ arrContectDict:NSMutableArray)->())
    {
        self.arrContactsDicts.removeAllObjects()
        DispatchQueue.global(qos: .background).async
        {
            self.requestedForAccess
            { (accessGranted) in
                if(accessGranted)
                {
                    for contact in self.getContact()
                    {
                        for tempContact:CNLabeledValue in contact.phoneNumbers
                        {
                            if contact.givenName.lowercased() == "spam" || contact.givenName.lowercased() == "identified as spam"
                            {
                                continue
                            }
                            var emailAddress = ""
                            if (contact.emailAddresses as NSArray).count != 0
                            {
                                emailAddress = (contact.emailAddresses.first!).value as String
                            }
                            self.getFinalNumber(tempContact, compilationClosure: { (finalNumber) in

                                if (finalNumber != "")
                                {
                                    let dict = ContactBean.init(firstName: contact.givenName, lastName: contact.familyName, mobileNumber: finalNumber, email: emailAddress)
                                    self.arrContactsDicts.add(dict)
                                }
                            })
                        }
                    }
                    compilationClosure(self.arrContactsDicts)
                }
                else
                {
                    compilationClosure([])
                }
            }
        }
    }
}
