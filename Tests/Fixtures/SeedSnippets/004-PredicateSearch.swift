// swift-format-ignore-file
// Seed 004, "Predicate-Based Search": the statements as written, in a function whose parameters are
// the group and container identifiers the article leaves undeclared.
import Contacts

func predicateSearch(groupId: String, containerId: String) {
    // By name
    let namePredicate = CNContact.predicateForContacts(matchingName: "John")

    // By email address
    let emailPredicate = CNContact.predicateForContacts(matchingEmailAddress: "john@example.com")

    // By phone number
    let phonePredicate = CNContact.predicateForContacts(
        matching: CNPhoneNumber(stringValue: "+1234567890")
    )

    // By identifiers (batch fetch)
    let idsPredicate = CNContact.predicateForContacts(withIdentifiers: ["id1", "id2", "id3"])

    // By group
    let groupPredicate = CNContact.predicateForContactsInGroup(withIdentifier: groupId)

    // By container
    let containerPredicate = CNContact.predicateForContactsInContainer(
        withIdentifier: containerId
    )
}
