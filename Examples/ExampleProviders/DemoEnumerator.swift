// The seed demo's enumerator, done right — and, for the conformance kit's own tests, the same
// enumerator with exactly one deliberate flaw.
//
// It reads the app's database through the App Group store, pages with the system's
// `suggestedPageSize` under a real generation marker, reports updates AND deletions from the
// database journal in `suggestedBatchSize` batches with advancing anchors, and answers
// `changeAnchorExpired` / `pageExpired` when the database forgot the anchor's generation.

import AppGroupStore
import ContactProvider
import Contacts
import Foundation

/// The root-container enumerator of the example providers.
public final class DemoEnumerator: ContactItemEnumerator {
    /// A deliberate bug, each breaking one conformance rule.
    public enum Flaw: Sendable {
        /// Each page carries a different generation marker (breaks R23, kit rule C2).
        case changingMarker
        /// `moreComing: true` without advancing the anchor (breaks R40, kit rule D4).
        case stuckMoreComing
        /// The first change enumeration starts at "now" instead of the content's start, so edits
        /// made during content enumeration are lost (breaks R29, kit rule D3).
        case markerAfterSnapshot
        /// The terminal observer call happens after the method returned (breaks R20, kit rule C1).
        case callsAfterReturn
    }

    private let flaw: Flaw?
    // Keeps the database in memory and reads only new journal lines on each call.
    private let database = ProviderDataSource()

    /// An enumerator over the App Group's database, with an optional deliberate flaw.
    public init(flaw: Flaw? = nil) {
        self.flaw = flaw
    }

    public func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        do {
            // The initial page takes the current generation and seq as its marker: that is at or
            // before the snapshot the pages are read from, so edits made meanwhile are delivered
            // by the first change enumeration (R29).
            let marker = page == .initialPage ? nil : Self.stripFlawPrefix(page.generationMarker)
            switch try database.contentPage(marker: marker, offset: page.offset, limit: observer.suggestedPageSize) {
            case .expired:
                observer.didFinishEnumeratingContentWithError(ContactProviderError.pageExpired)
            case .page(let records, let generation, let nextOffset, let isLast):
                var markerData = generation.data
                if flaw == .changingMarker { markerData = Data("p\(page.offset):".utf8) + markerData }
                if flaw == .markerAfterSnapshot { markerData = Data("late:".utf8) + markerData }
                let items = records.map { $0.makeItem() }
                if flaw == .callsAfterReturn {
                    // The bug from Apple forum thread 761601: the page is finished later, from a
                    // completion handler, after enumerateContent has already returned.
                    let finalMarker = markerData
                    let detached = UncheckedObserver(observer)
                    Task.detached {
                        try? await Task.sleep(nanoseconds: 100_000_000)
                        detached.observer.didEnumerate(items)
                        if isLast {
                            detached.observer.didFinishEnumeratingContent(upTo: finalMarker)
                        } else {
                            detached.observer.didFinishEnumeratingPage(
                                upTo: ContactItemPage(generationMarker: finalMarker, offset: nextOffset))
                        }
                    }
                    return
                }
                observer.didEnumerate(items)
                if isLast {
                    observer.didFinishEnumeratingContent(upTo: markerData)
                } else {
                    observer.didFinishEnumeratingPage(
                        upTo: ContactItemPage(generationMarker: markerData, offset: nextOffset))
                }
            }
        } catch {
            observer.didFinishEnumeratingContentWithError(error)
        }
    }

    public func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        do {
            var markerData = Self.stripFlawPrefix(syncAnchor.generationMarker)
            var offset = syncAnchor.offset
            if flaw == .markerAfterSnapshot, syncAnchor.generationMarker.starts(with: Data("late:".utf8)),
                let late = SyncMarker(data: markerData)
            {
                // The bug: "start from the content's generation" is taken to mean "from now".
                let head = try database.current().headSeq
                markerData = SyncMarker(generation: late.generation, seq: head).data
                offset = 0
            }
            switch try database.changes(marker: markerData, offset: offset, limit: observer.suggestedBatchSize) {
            case .expired:
                observer.didFinishEnumeratingChangesWithError(ContactProviderError.changeAnchorExpired)
            case .batch(let updated, let deleted, let marker, let nextOffset, let moreComing):
                if !updated.isEmpty { observer.didUpdate(updated.map { $0.makeItem() }) }
                if !deleted.isEmpty { observer.didDelete(deleted.map(ContactItem.Identifier.init)) }
                if flaw == .stuckMoreComing, !updated.isEmpty || !deleted.isEmpty {
                    observer.didFinishEnumeratingChanges(upTo: syncAnchor, moreComing: true)
                    return
                }
                observer.didFinishEnumeratingChanges(
                    upTo: ContactItemSyncAnchor(generationMarker: marker.data, offset: nextOffset),
                    moreComing: moreComing)
            }
        } catch {
            observer.didFinishEnumeratingChangesWithError(error)
        }
    }

    public func invalidate() async {}

    private static func stripFlawPrefix(_ marker: Data) -> Data {
        guard let text = String(data: marker, encoding: .utf8), let range = text.range(of: "cps1:") else {
            return marker
        }
        return Data(text[range.lowerBound...].utf8)
    }
}

/// The callsAfterReturn flaw hands the observer to a detached task, which is exactly the bug.
private struct UncheckedObserver: @unchecked Sendable {
    let observer: any ContactItemContentObserver
    init(_ observer: any ContactItemContentObserver) { self.observer = observer }
}

/// The example providers' principal class: `init()`, `configure(for:)`, one root enumerator.
///
/// Each example executable is a `@main` subclass that only chooses the flaw.
open class ExampleProvider: ContactProviderExtension {
    /// The flaw of this provider (none for the demo provider).
    open class var flaw: DemoEnumerator.Flaw? { nil }

    private let rootContainerEnumerator: DemoEnumerator
    /// The domain's display name, from `configure(for:)`.
    public private(set) var domainName = ""

    public required init() {
        rootContainerEnumerator = DemoEnumerator(flaw: Self.flaw)
    }

    public func configure(for domain: any ContactProviderDomain) {
        domainName = domain.displayName
    }

    public func enumerator(for collection: ContactItem.Identifier) -> any ContactItemEnumerator {
        rootContainerEnumerator
    }

    public func invalidate() async throws {
        await rootContainerEnumerator.invalidate()
    }
}
