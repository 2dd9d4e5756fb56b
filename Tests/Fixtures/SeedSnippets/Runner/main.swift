// Not from a seed: the app around the seed snippets (Tests/Fixtures/SeedSnippets), so
// `SeedSnippetRunTests` can run each one in its own process against a simulated device, as an app
// would call it. Each scenario calls the seeds' own functions and types and prints what they return,
// one fact per line; the test sets the scene with `contacts-host` and compares.
//
// Waiting is on the seeds' own signals (their completion closures, their @Published values, the
// CNContactStoreDidChange notification); the deadline below only bounds a failure.
import Combine
import ContactProvider
import Contacts
import Foundation

/// Prints a line and flushes it, so the test reading the pipe sees it at once.
func say(_ line: String) {
    print(line)
    fflush(stdout)
}

/// Ends the process with a failure that names what did not happen.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("seed-snippets: \(message)\n".utf8))
    exit(1)
}

/// Exits with a failure after `seconds` unless the scenario ended first.
func failAfter(_ seconds: Double, _ what: String) {
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { fail("timed out: \(what)") }
}

/// Full names, sorted, as one line.
func names(_ contacts: [CNContact]) -> String {
    contacts.map { "\($0.givenName) \($0.familyName)".trimmingCharacters(in: .whitespaces) }.sorted()
        .joined(separator: ", ")
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let scenario = arguments.first else { fail("usage: seed-snippets SCENARIO [ARGUMENT…]") }
var parameters = Array(arguments.dropFirst())

/// An integer parameter at `index`.
func number(_ index: Int) -> Int {
    guard index < parameters.count, let value = Int(parameters[index]) else {
        fail("\(scenario) needs an integer argument at position \(index + 1)")
    }
    return value
}

switch scenario {
case "000-contact-utility":
    // Seed 000: the article's ContactUtility asks for access and builds its list of ContactBeans.
    failAfter(30, "createDictOfContactList never called back")
    let beans = await withCheckedContinuation { (continuation: CheckedContinuation<[ContactBean], Never>) in
        ContactUtility.sharedInstance.createDictOfContactList { list in
            continuation.resume(returning: list.compactMap { $0 as? ContactBean })
        }
    }
    say("status \(CNContactStore.authorizationStatus(for: .contacts).rawValue)")
    for bean in beans.sorted(by: { ($0.firstName ?? "") < ($1.firstName ?? "") }) {
        say("bean \(bean.firstName ?? "") \(bean.lastName ?? "") \(bean.mobileNumber ?? "") \(bean.email ?? "")")
    }

case "001-history":
    // Seed 001: the fetcher binds (observing CNContactStoreDidChange), fetches the history from the
    // token it saved in UserDefaults, and publishes the rows. Arguments: the number of rows to wait
    // for, then (optionally) the number after another process changes the device: the runner says
    // `ready` in between, and the seed's own observer fetches again.
    //
    // The seed's Visitor applies each event in an unstructured Task, so nothing orders a
    // drop-everything's removeAll() before the adds that follow it: a fetch holding both can end
    // with no rows (on iOS too). The test therefore asks for drop-everything only where nothing is
    // added with it, and `--drop` makes the first phase wait for that removeAll (the actor's
    // @Published emits on every mutation: once on subscription, once more for removeAll).
    let waitsForDrop = parameters.first == "--drop"
    if waitsForDrop { parameters.removeFirst() }
    let fetcher = ContactHistoryFetcher()
    let expected = [number(0)] + (parameters.count > 1 ? [number(1)] : [])
    failAfter(60, "the fetcher's rows never reached \(expected)")
    let (rows, rowsContinuation) = AsyncStream<[String]>.makeStream()
    let subscription = fetcher.$contacts.sink { rowsContinuation.yield($0.map(\.text)) }
    let (drops, dropsContinuation) = AsyncStream<Void>.makeStream()
    let actorSubscription = await ContactActor.shared.$contacts.sink { if $0.isEmpty { dropsContinuation.yield() } }
    await fetcher.bind()
    await fetcher.fetchChanges()
    if waitsForDrop {
        var emptyEmissions = 0
        for await _ in drops {
            emptyEmissions += 1
            if emptyEmissions == 2 { break }
        }
    }
    actorSubscription.cancel()
    var phase = 0
    for await current in rows where current.count == expected[phase] {
        say("rows \(current.joined(separator: ", "))")
        phase += 1
        if phase == expected.count { break }
        say("ready")
    }
    subscription.cancel()
    // The token the seed saved must outlive the process, as it does on iOS.
    UserDefaults.standard.synchronize()

case "003-manager":
    // Seed 003: the app enables its provider and signals it; the runner then waits for the device
    // to show the provider's contacts (a CNContactStoreDidChange per commit). Argument: how many.
    let expected = number(0)
    failAfter(60, "the device never showed \(expected) provided contacts")
    let provided: @Sendable () throws -> [CNContact] = {
        let store = CNContactStore()
        let local = store.defaultContainerIdentifier()
        return try store.containers(matching: nil).filter { $0.identifier != local }.flatMap { container in
            try store.unifiedContacts(
                matching: CNContact.predicateForContactsInContainer(withIdentifier: container.identifier),
                keysToFetch: [CNContactGivenNameKey as CNKeyDescriptor, CNContactFamilyNameKey as CNKeyDescriptor])
        }
    }
    let (changes, changesContinuation) = AsyncStream<Void>.makeStream()
    let observer = NotificationCenter.default.addObserver(forName: .CNContactStoreDidChange, object: nil, queue: nil) {
        _ in changesContinuation.yield()
    }
    try await enableTheProvider()
    try await synchronizeTheContacts()
    say("enabled and signalled")
    changesContinuation.yield()
    for await _ in changes {
        let contacts = try provided()
        if contacts.count == expected {
            say("provided \(names(contacts))")
            break
        }
    }
    NotificationCenter.default.removeObserver(observer)

case "004-contact-manager":
    // Seed 004: the ContactManager's authorization and load, sorted by given name.
    // Top-level code runs on the main actor, as the seed's @MainActor ContactManager expects.
    let manager = ContactManager()
    manager.checkAuthorization()
    say("status \(manager.authorizationStatus.rawValue)")
    do {
        try await manager.requestAccess()
    } catch {
        say("requestAccess threw \((error as NSError).code) \(error.localizedDescription)")
    }
    say("can access \(manager.canAccessContacts) limited \(manager.hasLimitedAccess)")
    try await manager.loadContacts()
    let contacts = manager.contacts
    say(
        "loaded \(contacts.map { "\($0.givenName) \($0.familyName)".trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))"
    )
    for contact in contacts { say("formatted \(manager.formattedName(for: contact))") }

case "004-birthdays":
    // Seed 004: contacts born in the month given.
    say("born \(names(try fetchContactsWithBirthday(in: number(0))))")

case "004-predicates":
    // Seed 004: builds each predicate (the snippet only builds them), with a real group and container.
    predicateSearch(groupId: "none", containerId: store.defaultContainerIdentifier())
    say("predicates built")

case "004-groups":
    // Seed 004: create a group, add the first contact (by given name) to it, list, remove.
    try createGroup(name: parameters.first ?? "Seeds")
    let group = try fetchGroups().first { $0.name == (parameters.first ?? "Seeds") }
    guard let group else { fail("createGroup's group is not among fetchGroups()") }
    say("groups \(try fetchGroups().map(\.name).sorted().joined(separator: ", "))")
    let keys = [CNContactGivenNameKey as CNKeyDescriptor, CNContactFamilyNameKey as CNKeyDescriptor]
    let first = try store.unifiedContacts(
        matching: CNContact.predicateForContactsInContainer(withIdentifier: store.defaultContainerIdentifier()),
        keysToFetch: keys
    ).min { $0.givenName < $1.givenName }
    guard let first else { fail("the device has no contacts of its own") }
    try addContactToGroup(contact: first, group: group)
    say("members \(names(try fetchContactsInGroup(group)))")
    try removeContactFromGroup(contact: first, group: group)
    say("members after removal \(names(try fetchContactsInGroup(group)))")

case "004-vcard":
    // Seed 004: export every contact of the device's own container, read the file back, and import
    // a card of a new contact.
    let keys = [CNContactVCardSerialization.descriptorForRequiredKeys()]
    let own = try store.unifiedContacts(
        matching: CNContact.predicateForContactsInContainer(withIdentifier: store.defaultContainerIdentifier()),
        keysToFetch: keys)
    guard let path = parameters.first else { fail("004-vcard needs a file") }
    let file = URL(fileURLWithPath: path)
    try saveVCard(contacts: own, to: file)
    say("read back \(names(try importFromVCard(data: try Data(contentsOf: file))))")
    let newcomer = CNMutableContact()
    newcomer.givenName = "Vera"
    newcomer.familyName = "Card"
    try importAndSave(data: try exportToVCard(contacts: [newcomer]))
    let after = try store.unifiedContacts(
        matching: CNContact.predicateForContacts(matchingName: "Vera"), keysToFetch: keys)
    say("imported \(names(after))")

case "004-observe":
    // Seed 004: observeChanges calls its handler on the main queue when the device changes.
    failAfter(60, "observeChanges' handler was never called")
    let (calls, callsContinuation) = AsyncStream<Void>.makeStream()
    let token = observeChanges { callsContinuation.yield() }
    _ = store.defaultContainerIdentifier()
    say("ready")
    for await _ in calls {
        say("changed")
        break
    }
    NotificationCenter.default.removeObserver(token)

default:
    fail("unknown scenario \(scenario)")
}
