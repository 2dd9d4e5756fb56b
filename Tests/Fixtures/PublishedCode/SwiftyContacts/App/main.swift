// Not from the published package: an app that calls SwiftyContacts (../Sources, vendored unchanged, see
// ../PROVENANCE) the way its README shows, one call per line of output, so
// `PublishedContactsCodeTests` can run the package against a simulated device set up by `contacts-host`.
import Foundation
import SwiftyContacts

/// Prints a line and flushes it.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Given and family names, sorted unless `sorted` is false.
func names(_ contacts: [CNContact], sorted: Bool = true) -> String {
    let names = contacts.map { "\($0.givenName) \($0.familyName)".trimmingCharacters(in: .whitespaces) }
    return (sorted ? names.sorted() : names).joined(separator: ", ")
}

/// What an error says: its domain, code and description.
func describe(_ error: any Error) -> String {
    let error = error as NSError
    return "\(error.domain) \(error.code) \(error.localizedDescription)"
}

/// The closure API's answer, waited for (it calls back on another queue).
func waitFor<Value>(_ call: (@escaping (Result<Value, any Error>) -> Void) -> Void) -> Result<Value, any Error> {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var answer: Result<Value, any Error>?
    call { result in
        answer = result
        done.signal()
    }
    done.wait()
    return answer!
}

switch CommandLine.arguments.dropFirst().first {
case "tour":
    say("status \(authorizationStatus().rawValue)")
    say("access \(try await requestAccess())")
    let ada = CNMutableContact()
    ada.givenName = "Ada"
    ada.familyName = "Lovelace"
    ada.emailAddresses = [CNLabeledValue(label: CNLabelWork, value: "ada@example.com" as NSString)]
    try addContact(ada)
    say("matching name \(names(try fetchContacts(matchingName: "Ada")))")
    say("by given name \(names(try await fetchContacts(order: .givenName), sorted: false))")
    try addGroup("Pioneers")
    let groups = try fetchGroups()
    say("groups \(groups.map(\.name).sorted().joined(separator: ", "))")
    guard let pioneers = groups.first(where: { $0.name == "Pioneers" }) else { exit(1) }
    let stored = try fetchContact(withIdentifier: ada.identifier)
    try addContact(stored, to: pioneers)
    say("in group \(names(try fetchContact(in: pioneers.identifier)))")
    try deleteContact(stored, from: pioneers)
    say("in group after removal \(names(try fetchContacts(withGroupIdentifier: pioneers.identifier)))")
    let renamed = stored.mutableCopy() as! CNMutableContact
    renamed.familyName = "King"
    try updateContact(renamed)
    say("updated \(names([try fetchContact(withIdentifier: ada.identifier)]))")
    switch waitFor({ fetchContacts(matchingEmailAddress: "ada@example.com", $0) }) {
    case .success(let found): say("closure by email \(names(found))")
    case .failure(let error): say("closure by email threw \(describe(error))")
    }
    let card = try encode(contacts: [try fetchContact(withIdentifier: ada.identifier)])
    say("vCard round trip \(names(try decode(data: card)))")
    for container in try CNContactStore().containers(matching: nil).sorted(by: { $0.identifier < $1.identifier }) {
        say(
            "container \(container.identifier): \(names(try fetchContacts(withContainerIdentifier: container.identifier)))"
        )
    }
    do {
        guard let provided = try fetchContacts(matchingName: "Alan").first else { throw CocoaError(.fileNoSuchFile) }
        let copy = provided.mutableCopy() as! CNMutableContact
        copy.givenName = "Alan M."
        try updateContact(copy)
        say("provided contact updated")
    } catch {
        say("provided contact refused: \(describe(error))")
    }
    try deleteContact(try fetchContact(withIdentifier: ada.identifier))
    say("after delete \(names(try fetchContacts(matchingName: "Ada")))")
    try deleteGroup(pioneers)
    say("groups after delete \(try fetchGroups().count)")

case "denied":
    say("status \(authorizationStatus().rawValue)")
    do {
        say("access \(try await requestAccess())")
    } catch {
        say("requestAccess threw \(describe(error))")
    }
    switch waitFor({ fetchContacts($0) }) {
    case .success(let contacts): say("fetched \(contacts.count)")
    case .failure(let error): say("fetchContacts threw \(describe(error))")
    }

default:
    FileHandle.standardError.write(Data("usage: swiftycontacts-app tour|denied\n".utf8))
    exit(2)
}
