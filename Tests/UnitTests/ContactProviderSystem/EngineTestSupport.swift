import AppGroupStore
import ContactProviderSystem
import ContactProviderTesting
import Foundation
import TestSupport

/// Records for tests.
func records(_ range: ClosedRange<Int>, prefix: String = "c") -> [ContactRecord] {
    range.map { index in
        var record = ContactRecord(identifier: "\(prefix)\(index)")
        record.givenName = "Given\(index)"
        return record
    }
}

let marker = Data("gen-1".utf8)

/// A well-behaved paging provider over a fixed list.
func pagingContent(_ all: [ContactRecord], marker: Data = marker) -> ScriptedDriver.Content {
    ScriptedDriver.paging(over: all, marker: marker)
}

/// An engine over a fresh App Group with the domain enabled.
func makeEngine(
    _ group: TemporaryAppGroup, clock: any SystemClock = ContinuousSystemClock(),
    configure: (inout DomainConfiguration) -> Void = { _ in }, onEvent: ((SyncEngine.Event) -> Void)? = nil
) throws -> SyncEngine {
    let client = try SystemClient(appGroup: group.appGroup, domain: "defaultDomain")
    try client.updateConfiguration { configuration in
        configuration.enabled = true
        configure(&configuration)
    }
    return SyncEngine(paths: client.paths, clock: clock, onEvent: onEvent ?? WatchChannel.notifier(for: client.paths))
}

/// The system store's contacts as a dictionary.
func systemContacts(_ group: TemporaryAppGroup) throws -> [String: ContactRecord] {
    let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
    return try SystemStore(directory: paths.systemStore).load().records
}
