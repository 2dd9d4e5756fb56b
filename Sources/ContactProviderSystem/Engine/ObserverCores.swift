import AppGroupStore
import Foundation
import Synchronization

/// How a content page ended.
public enum ContentPageEnd: Equatable, Sendable {
    /// `didFinishEnumeratingPage(upTo:)`: more pages follow.
    case page(SyncPosition)
    /// `didFinishEnumeratingContent(upTo:)`: the enumeration is complete at this generation marker.
    case content(Data)
    /// `didFinishEnumeratingContentWithError(_:)`.
    case error(ProviderErrorCode?, String)
}

/// How a change batch ended.
public enum ChangeBatchEnd: Equatable, Sendable {
    /// `didFinishEnumeratingChanges(upTo:moreComing:)`.
    case batch(SyncPosition, moreComing: Bool)
    /// `didFinishEnumeratingChangesWithError(_:)`.
    case error(ProviderErrorCode?, String)
}

/// The system's content observer for one `enumerateContent` call, in record form.
///
/// The `ContactProvider` module wraps it as a `ContactItemContentObserver`. It collects items
/// until the terminal call (nothing is visible until the engine commits, R24), and records
/// misuse: a second terminal call or `didEnumerate` after one (R19), and any call after the
/// enumerate method returned (R20).
public final class ContentObserverCore: Sendable {
    /// `suggestedPageSize`.
    public let suggestedPageSize: Int
    let transcript: Transcript

    struct State {
        var items: [ContactRecord] = []
        var end: ContentPageEnd?
        var closed = false
        var violations: [SyncFailure] = []
        var lateCalls: [String] = []
    }

    let state = Mutex(State())

    init(suggestedPageSize: Int, transcript: Transcript) {
        self.suggestedPageSize = suggestedPageSize
        self.transcript = transcript
    }

    private func accept(_ call: String) -> Bool {
        let closed = state.withLock { state -> Bool in
            if state.closed { state.lateCalls.append(call) }
            return state.closed
        }
        if closed {
            transcript.record("  ! \(call) after enumerateContent returned (ignored, R20)")
            return false
        }
        transcript.record("  \(call)")
        return true
    }

    /// `didEnumerate(_:)`.
    public func didEnumerate(_ records: [ContactRecord]) {
        guard accept("didEnumerate(\(Transcript.summarize(records.map(\.identifier))))") else { return }
        state.withLock { state in
            if state.end != nil {
                state.violations.append(
                    .ruleViolation(rule: "R19", message: "didEnumerate was called after the page's terminal call"))
            } else {
                state.items.append(contentsOf: records)
            }
        }
    }

    /// `didFinishEnumeratingPage(upTo:)`.
    public func didFinishPage(upTo next: SyncPosition) {
        finish(.page(next), call: "didFinishEnumeratingPage(upTo: \(next))")
    }

    /// `didFinishEnumeratingContent(upTo:)`.
    public func didFinishContent(upTo marker: Data) {
        finish(.content(marker), call: "didFinishEnumeratingContent(upTo: \(SyncPosition(generationMarker: marker, offset: 0).description.dropFirst().split(separator: ",").first ?? ""))")
    }

    /// `didFinishEnumeratingContentWithError(_:)`.
    public func didFinishWithError(code: ProviderErrorCode?, description: String) {
        finish(.error(code, description), call: "didFinishEnumeratingContentWithError(\(code.map { ".\($0.rawValue)" } ?? description))")
    }

    private func finish(_ end: ContentPageEnd, call: String) {
        guard accept(call) else { return }
        state.withLock { state in
            if state.end != nil {
                state.violations.append(
                    .ruleViolation(rule: "R19", message: "a second terminal call (\(call)) after the page had ended"))
            } else {
                state.end = end
            }
        }
    }

    /// Stops accepting calls (the enumerate method returned or timed out).
    func close() -> State {
        state.withLock { state in
            state.closed = true
            return state
        }
    }

    /// Calls that arrived after `close()`.
    var lateCalls: [String] { state.withLock { $0.lateCalls } }
}

/// The system's change observer for one `enumerateChanges` call, in record form.
///
/// Updates and deletions are applied in call order when the batch commits (R32, R33, R34).
public final class ChangeObserverCore: Sendable {
    /// `suggestedBatchSize`.
    public let suggestedBatchSize: Int
    let transcript: Transcript

    enum Change: Equatable {
        case update([ContactRecord])
        case delete([String])
    }

    struct State {
        var changes: [Change] = []
        var count = 0
        var end: ChangeBatchEnd?
        var closed = false
        var violations: [SyncFailure] = []
        var lateCalls: [String] = []
    }

    let state = Mutex(State())

    init(suggestedBatchSize: Int, transcript: Transcript) {
        self.suggestedBatchSize = suggestedBatchSize
        self.transcript = transcript
    }

    private func accept(_ call: String) -> Bool {
        let closed = state.withLock { state -> Bool in
            if state.closed { state.lateCalls.append(call) }
            return state.closed
        }
        if closed {
            transcript.record("  ! \(call) after enumerateChanges returned (ignored, R20/R30)")
            return false
        }
        transcript.record("  \(call)")
        return true
    }

    private func add(_ change: Change, count: Int, call: String) {
        state.withLock { state in
            if state.end != nil {
                state.violations.append(.ruleViolation(rule: "R30", message: "\(call) after the batch's terminal call"))
            } else {
                state.changes.append(change)
                state.count += count
            }
        }
    }

    /// `didUpdate(_:)`.
    public func didUpdate(_ records: [ContactRecord]) {
        let call = "didUpdate(\(Transcript.summarize(records.map(\.identifier))))"
        guard accept(call) else { return }
        add(.update(records), count: records.count, call: "didUpdate")
    }

    /// `didDelete(_:)`.
    public func didDelete(_ identifiers: [String]) {
        let call = "didDelete(\(Transcript.summarize(identifiers)))"
        guard accept(call) else { return }
        add(.delete(identifiers), count: identifiers.count, call: "didDelete")
    }

    /// `didFinishEnumeratingChanges(upTo:moreComing:)`.
    public func didFinishBatch(upTo anchor: SyncPosition, moreComing: Bool) {
        finish(.batch(anchor, moreComing: moreComing), call: "didFinishEnumeratingChanges(upTo: \(anchor), moreComing: \(moreComing))")
    }

    /// `didFinishEnumeratingChangesWithError(_:)`.
    public func didFinishWithError(code: ProviderErrorCode?, description: String) {
        finish(.error(code, description), call: "didFinishEnumeratingChangesWithError(\(code.map { ".\($0.rawValue)" } ?? description))")
    }

    private func finish(_ end: ChangeBatchEnd, call: String) {
        guard accept(call) else { return }
        state.withLock { state in
            if state.end != nil {
                state.violations.append(
                    .ruleViolation(rule: "R30", message: "a second terminal call (\(call)) after the batch had ended"))
            } else {
                state.end = end
            }
        }
    }

    func close() -> State {
        state.withLock { state in
            state.closed = true
            return state
        }
    }

    var lateCalls: [String] { state.withLock { $0.lateCalls } }
}

/// The provider side, as the engine drives it: one enumerator of the root container.
///
/// The `ContactProvider` module adapts any `ContactItemEnumerator` to this protocol. The engine
/// calls one method at a time (a single consumer, as FileProvider guarantees).
public protocol EnumeratorDriver: Sendable {
    /// `enumerateContent(in:for:)`.
    func enumerateContent(in page: SyncPosition, observer: ContentObserverCore) async
    /// `enumerateChanges(startingAt:for:)`.
    func enumerateChanges(from anchor: SyncPosition, observer: ChangeObserverCore) async
    /// The enumerator's `invalidate()`.
    func invalidate() async
}
