import Contacts
import Foundation

/// Writes each change-history event it visits as a line a test compares: `drop`,
/// `add Ada CNContainer.local` (the container only when asked for), `update Ada`,
/// `delete <identifier>`, `add group Friends`, `update group Friends`, `delete group <identifier>`,
/// `member Ada + Friends`, `member Ada - Friends`; and keeps the contacts the events carried.
///
/// One recorder for every test of `CNChangeHistoryFetchRequest`, so a new kind of event is
/// recorded everywhere the same way.
package final class ChangeHistoryRecorder: NSObject, CNChangeHistoryEventVisitor {
    /// One line per event, in the order visited.
    package private(set) var lines: [String] = []
    /// The contacts of the add and update events, in the order visited.
    package private(set) var contacts: [CNContact] = []
    private let namesContainers: Bool

    /// A recorder whose add lines name the event's container when `containers` is true.
    package init(containers: Bool = false) {
        namesContainers = containers
    }

    /// The events of a fetch's result, visited in order.
    package func record(_ events: some Sequence) {
        for case let event as CNChangeHistoryEvent in events { event.accept(self) }
    }

    package func visit(_ event: CNChangeHistoryDropEverythingEvent) { lines.append("drop") }

    package func visit(_ event: CNChangeHistoryAddContactEvent) {
        contacts.append(event.contact)
        lines.append(
            "add \(event.contact.givenName)" + (namesContainers ? " \(event.containerIdentifier ?? "nil")" : ""))
    }

    package func visit(_ event: CNChangeHistoryUpdateContactEvent) {
        contacts.append(event.contact)
        lines.append("update \(event.contact.givenName)")
    }

    package func visit(_ event: CNChangeHistoryDeleteContactEvent) { lines.append("delete \(event.contactIdentifier)") }

    package func visit(_ event: CNChangeHistoryAddGroupEvent) { lines.append("add group \(event.group.name)") }

    package func visit(_ event: CNChangeHistoryUpdateGroupEvent) { lines.append("update group \(event.group.name)") }

    package func visit(_ event: CNChangeHistoryDeleteGroupEvent) {
        lines.append("delete group \(event.groupIdentifier)")
    }

    package func visit(_ event: CNChangeHistoryAddMemberToGroupEvent) {
        lines.append("member \(event.member.givenName) + \(event.group.name)")
    }

    package func visit(_ event: CNChangeHistoryRemoveMemberFromGroupEvent) {
        lines.append("member \(event.member.givenName) - \(event.group.name)")
    }
}
