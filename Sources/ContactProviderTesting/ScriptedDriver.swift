import AppGroupStore
import ContactProviderSystem
import Foundation
import Synchronization

/// A provider whose every answer is a closure, driven by the system engine in process: the
/// engine's in-memory transport, after SwiftNIO's `EmbeddedChannel`. With a `ManualClock`, a test
/// decides what each page or batch answers and when time passes, and checks what the system
/// committed, without processes, pipes or sleeps.
///
/// ```swift
/// let driver = ScriptedDriver(content: ScriptedDriver.paging(over: contacts, marker: Data("v1".utf8)))
/// let engine = SyncEngine(paths: paths, clock: ManualClock())
/// ```
public final class ScriptedDriver: EnumeratorDriver {
    /// How the provider answers one content page.
    public typealias Content = @Sendable (SyncPosition, ContentObserverCore) async -> Void
    /// How the provider answers one change batch.
    public typealias Changes = @Sendable (SyncPosition, ChangeObserverCore) async -> Void

    private let content: Content
    private let changes: Changes
    /// Every call the engine made, in order ("content …", "changes …").
    public let calls = Mutex<[String]>([])
    /// How many times the engine called `invalidate()`.
    public let invalidated = Mutex(0)

    /// A driver answering content pages with `content` and change batches with `changes` (by
    /// default: `cannotEnumerate`, "not scripted").
    public init(
        content: @escaping Content,
        changes: @escaping Changes = { _, observer in
            observer.didFinishWithError(code: .cannotEnumerate, description: "not scripted")
        }
    ) {
        self.content = content
        self.changes = changes
    }

    /// Records the call and runs the script's `content`.
    public func enumerateContent(in page: SyncPosition, observer: ContentObserverCore) async {
        calls.withLock { $0.append("content \(page)") }
        await content(page, observer)
    }

    /// Records the call and runs the script's `changes`.
    public func enumerateChanges(from anchor: SyncPosition, observer: ChangeObserverCore) async {
        calls.withLock { $0.append("changes \(anchor)") }
        await changes(anchor, observer)
    }

    /// Counts the call.
    public func invalidate() async {
        invalidated.withLock { $0 += 1 }
    }
}

extension ScriptedDriver {
    /// A well-behaved content script: pages of `observer.suggestedPageSize` over `all`, in order,
    /// the last finishing the content at `marker`.
    public static func paging(over all: [ContactRecord], marker: Data) -> Content {
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
}
