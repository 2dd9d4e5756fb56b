// Not from the published app: a driver that calls EasyDelete's own contact-store code (the files beside it,
// vendored unchanged, see ../../PROVENANCE) the way the app does (fetch the address book, delete the
// contacts the user picks, recover them from the archived copies the app keeps), one call per line of
// output, so `PublishedContactsCodeTests` can run it against a simulated device set up by `contacts-host`.
import Contacts
import Foundation

/// Prints a line and flushes it.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// What an error says: its domain, code and description.
func describe(_ error: any Error) -> String {
    let error = error as NSError
    return "\(error.domain) \(error.code) \(error.localizedDescription)"
}

/// Given and family names, sorted.
func names(_ contacts: [ContactModel]) -> String {
    contacts.map { "\($0.givenName ?? "") \($0.familyName ?? "")".trimmingCharacters(in: .whitespaces) }
        .sorted().joined(separator: ", ")
}

/// The app's answer, waited for: ContactsStore calls back on its own queue.
func waitFor<Value>(_ call: (@escaping (Value) -> Void) -> Void) -> Value {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var answer: Value?
    call { value in
        answer = value
        done.signal()
    }
    done.wait()
    return answer!
}

/// One line for a fetch: the names, or the error the app got.
func fetched(_ store: ContactsStore) -> (String, [ContactModel]) {
    switch waitFor({ store.fetchContacts(completionHandler: $0) }) {
    case .success(let contacts): return (names(contacts), contacts)
    case .failure(.accessDenied(let error)): return ("access denied: \(describe(error))", [])
    case .failure(.commonError(let error)): return ("failed: \(describe(error))", [])
    }
}

/// One line for an add or a delete: the action, or the error the app got.
func outcome(_ result: Result<ContactStoreSuccessfulAction, ContactStoreError>) -> String {
    switch result {
    case .success(let action): return "\(action)"
    case .failure(.accessDenied(let error)): return "access denied: \(describe(error))"
    case .failure(.commonError(let error)): return "refused: \(describe(error))"
    }
}

let store = ContactsStore()
switch CommandLine.arguments.dropFirst().first {
case "tour":
    let (all, contacts) = fetched(store)
    say("fetched \(all)")
    say("phones \(contacts.flatMap(\.phoneNumbers).sorted().joined(separator: ", "))")
    say("archived \(contacts.filter { $0.vCard != nil }.count) of \(contacts.count)")
    let doomed = contacts.filter { $0.givenName == "Ada" }
    say("delete \(outcome(waitFor { store.delete(contacts: doomed, completionHandler: $0) }))")
    say("after delete \(fetched(store).0)")
    say("recover \(outcome(waitFor { store.add(contacts: doomed, completionHandler: $0) }))")
    let (recovered, again) = fetched(store)
    say("after recover \(recovered)")
    say("recovered phones \(again.filter { $0.givenName == "Ada" }.flatMap(\.phoneNumbers).joined(separator: ", "))")
    let provided = contacts.filter { $0.givenName == "Alan" }
    say("delete provided \(outcome(waitFor { store.delete(contacts: provided, completionHandler: $0) }))")

case "denied":
    say("fetched \(fetched(store).0)")

default:
    FileHandle.standardError.write(Data("usage: easydelete-app tour|denied\n".utf8))
    exit(2)
}
