import AppGroupStore
import ContactProviderSystem
import Foundation
import Synchronization
import TestSupport

/// An in-process provider whose every answer is a closure: the engine's in-memory transport.
final class ScriptedDriver: EnumeratorDriver {
    typealias Content = @Sendable (SyncPosition, ContentObserverCore) async -> Void
    typealias Changes = @Sendable (SyncPosition, ChangeObserverCore) async -> Void

    private let content: Content
    private let changes: Changes
    let calls = Mutex<[String]>([])
    let invalidated = Mutex(0)

    init(content: @escaping Content, changes: @escaping Changes = { _, observer in
        observer.didFinishWithError(code: .cannotEnumerate, description: "not scripted")
    }) {
        self.content = content
        self.changes = changes
    }

    func enumerateContent(in page: SyncPosition, observer: ContentObserverCore) async {
        calls.withLock { $0.append("content \(page)") }
        await content(page, observer)
    }

    func enumerateChanges(from anchor: SyncPosition, observer: ChangeObserverCore) async {
        calls.withLock { $0.append("changes \(anchor)") }
        await changes(anchor, observer)
    }

    func invalidate() async {
        invalidated.withLock { $0 += 1 }
    }
}

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
    { page, observer in
        let start = page.offset
        let slice = Array(all.dropFirst(start).prefix(observer.suggestedPageSize))
        observer.didEnumerate(slice)
        let next = start + slice.count
        if next >= all.count {
            observer.didFinishContent(upTo: marker)
        } else {
            observer.didFinishPage(upTo: SyncPosition(generationMarker: marker, offset: next))
        }
    }
}

/// An engine over a fresh App Group with the domain enabled.
func makeEngine(
    _ group: TemporaryAppGroup, clock: any SystemClock = ContinuousSystemClock(),
    configure: (inout DomainConfiguration) -> Void = { _ in }
) throws -> SyncEngine {
    let client = try SystemClient(appGroup: group.appGroup, domain: "defaultDomain")
    try client.updateConfiguration { configuration in
        configuration.enabled = true
        configure(&configuration)
    }
    return SyncEngine(paths: client.paths, clock: clock)
}

/// The system store's contacts as a dictionary.
func systemContacts(_ group: TemporaryAppGroup) throws -> [String: ContactRecord] {
    let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
    return try SystemStore(directory: paths.systemStore).load().records
}
