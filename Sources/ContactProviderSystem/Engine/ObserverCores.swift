import AppGroupStore
import Foundation
import Synchronization

/// How a content page ended.
package enum ContentPageEnd: Equatable, Sendable {
    /// `didFinishEnumeratingPage(upTo:)`: more pages follow.
    case page(SyncPosition)
    /// `didFinishEnumeratingContent(upTo:)`: the enumeration is complete at this generation marker.
    case content(Data)
    /// `didFinishEnumeratingContentWithError(_:)`.
    case error(ProviderErrorCode?, String)
}

/// How a change batch ended.
package enum ChangeBatchEnd: Equatable, Sendable {
    /// `didFinishEnumeratingChanges(upTo:moreComing:)`.
    case batch(SyncPosition, moreComing: Bool)
    /// `didFinishEnumeratingChangesWithError(_:)`.
    case error(ProviderErrorCode?, String)
}

/// The record of one enumerator call's observer calls: what arrived before the terminal call,
/// how the call ended, misuse within it, and calls that came after the method returned.
///
/// Both system observers are this plus their payload: a content page collects items, a change
/// batch collects updates and deletions.
package final class ObserverCallLog<Payload: Sendable, End: Sendable>: Sendable {
    /// Everything recorded.
    package struct State: Sendable {
        package var payload: Payload
        package var end: End?
        var closed = false
        package var violations: [SyncFailure] = []
        var lateCalls: [String] = []
    }

    let state: Mutex<State>
    /// The payload a log starts with (empty), put back when the log closes.
    private let emptyPayload: Payload
    let transcript: Transcript
    private let method: String
    /// The rules a late call breaks (`R20`, and `R30` for changes), as the transcript names them.
    private let lateRules: String
    private let terminalRule: FrameworkRule

    init(
        payload: Payload, transcript: Transcript, method: String, lateRules: [FrameworkRule],
        terminalRule: FrameworkRule
    ) {
        state = Mutex(State(payload: payload))
        emptyPayload = payload
        self.transcript = transcript
        self.method = method
        self.lateRules = lateRules.map(\.id).joined(separator: "/")
        self.terminalRule = terminalRule
    }

    /// Records `call` in the transcript; false (and reported) when the method already returned.
    func accept(_ call: String) -> Bool {
        let closed = state.withLock { state -> Bool in
            if state.closed { state.lateCalls.append(call) }
            return state.closed
        }
        transcript.record(closed ? "  ! \(call) after \(method) returned (ignored, \(lateRules))" : "  \(call)")
        return !closed
    }

    /// Adds to the payload; after the terminal call that is a violation instead.
    func add(_ call: String, _ update: (inout Payload) -> Void) {
        guard accept(call) else { return }
        state.withLock { state in
            if state.end != nil {
                state.violations.append(
                    .ruleViolation(terminalRule, message: "\(call) was called after the terminal call"))
            } else {
                update(&state.payload)
            }
        }
    }

    /// Records the terminal call; a second one is a violation.
    func finish(_ end: End, call: String) {
        guard accept(call) else { return }
        state.withLock { state in
            if state.end != nil {
                state.violations.append(
                    .ruleViolation(
                        terminalRule,
                        message: "a second terminal call (\(call)) after the \(method) call had ended"))
            } else {
                state.end = end
            }
        }
    }

    /// Stops accepting calls (the method returned or timed out) and returns what was recorded.
    ///
    /// The log keeps only what late calls need: the engine holds every closed log until the next
    /// sync (to report late calls, R20), and a page's items held that long added up to the whole
    /// address book during a full sync.
    func close() -> State {
        state.withLock { state in
            state.closed = true
            let recorded = state
            state.payload = emptyPayload
            return recorded
        }
    }
}

extension ObserverCallLog: LateCallSource {
    func drainLateCalls() -> [String] {
        state.withLock { state in
            defer { state.lateCalls = [] }
            return state.lateCalls
        }
    }
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
    let log: ObserverCallLog<[ContactRecord], ContentPageEnd>
    /// The conformance kit's mid-call pause (syncs only; nil for probes).
    let pause: MidCallPause?

    init(suggestedPageSize: Int, transcript: Transcript, pause: MidCallPause? = nil) {
        self.suggestedPageSize = suggestedPageSize
        self.pause = pause
        log = ObserverCallLog(
            payload: [], transcript: transcript, method: "enumerateContent", lateRules: [.r20], terminalRule: .r19)
    }

    /// `didEnumerate(_:)`.
    public func didEnumerate(_ records: [ContactRecord]) {
        log.add("didEnumerate(\(Transcript.summarize(records)))") { $0.append(contentsOf: records) }
        pause?.pauseIfRequested()
    }

    /// `didFinishEnumeratingPage(upTo:)`.
    public func didFinishPage(upTo next: SyncPosition) {
        log.finish(.page(next), call: "didFinishEnumeratingPage(upTo: \(next))")
    }

    /// `didFinishEnumeratingContent(upTo:)`.
    public func didFinishContent(upTo marker: Data) {
        let text =
            SyncPosition(generationMarker: marker, offset: 0).description.dropFirst().split(separator: ",").first ?? ""
        log.finish(.content(marker), call: "didFinishEnumeratingContent(upTo: \(text))")
    }

    /// `didFinishEnumeratingContentWithError(_:)`.
    public func didFinishWithError(code: ProviderErrorCode?, description: String) {
        log.finish(
            .error(code, description),
            call: "didFinishEnumeratingContentWithError(\(code.map { ".\($0.rawValue)" } ?? description))")
    }

    func close() -> ObserverCallLog<[ContactRecord], ContentPageEnd>.State { log.close() }
}

/// The payload of a change batch: updates and deletions in call order.
package struct ChangePayload: Sendable {
    enum Change: Equatable, Sendable {
        case update([ContactRecord])
        case delete([String])
    }

    var changes: [Change] = []
    /// Updates plus deletions (what `suggestedBatchSize` limits, R31).
    var count = 0
}

extension ObserverCallLog.State where Payload == [ContactRecord] {
    /// The items of a content page.
    var items: [ContactRecord] { payload }
}

extension ObserverCallLog.State where Payload == ChangePayload {
    var changes: [ChangePayload.Change] { payload.changes }
    var count: Int { payload.count }
}

/// The system's change observer for one `enumerateChanges` call, in record form.
///
/// Updates and deletions are applied in call order when the batch commits (R32, R33, R34).
public final class ChangeObserverCore: Sendable {
    /// `suggestedBatchSize`.
    public let suggestedBatchSize: Int
    let log: ObserverCallLog<ChangePayload, ChangeBatchEnd>
    /// The conformance kit's mid-call pause (syncs only; nil for probes).
    let pause: MidCallPause?

    init(suggestedBatchSize: Int, transcript: Transcript, pause: MidCallPause? = nil) {
        self.suggestedBatchSize = suggestedBatchSize
        self.pause = pause
        log = ObserverCallLog(
            payload: ChangePayload(), transcript: transcript, method: "enumerateChanges", lateRules: [.r20, .r30],
            terminalRule: .r30)
    }

    /// `didUpdate(_:)`.
    public func didUpdate(_ records: [ContactRecord]) {
        log.add("didUpdate(\(Transcript.summarize(records)))") {
            $0.changes.append(.update(records))
            $0.count += records.count
        }
        pause?.pauseIfRequested()
    }

    /// `didDelete(_:)`.
    ///
    /// The transcript shows identifiers only: the name the system had for each is in the system store,
    /// which the engine does not keep in memory (`retainsContacts: false`), and reading it for every
    /// traced delete would cost a store lookup per identifier in the middle of the provider's call.
    public func didDelete(_ identifiers: [String]) {
        log.add("didDelete(\(Transcript.summarize(identifiers)))") {
            $0.changes.append(.delete(identifiers))
            $0.count += identifiers.count
        }
        pause?.pauseIfRequested()
    }

    /// `didFinishEnumeratingChanges(upTo:moreComing:)`.
    public func didFinishBatch(upTo anchor: SyncPosition, moreComing: Bool) {
        log.finish(
            .batch(anchor, moreComing: moreComing),
            call: "didFinishEnumeratingChanges(upTo: \(anchor), moreComing: \(moreComing))")
    }

    /// `didFinishEnumeratingChangesWithError(_:)`.
    public func didFinishWithError(code: ProviderErrorCode?, description: String) {
        log.finish(
            .error(code, description),
            call: "didFinishEnumeratingChangesWithError(\(code.map { ".\($0.rawValue)" } ?? description))")
    }

    func close() -> ObserverCallLog<ChangePayload, ChangeBatchEnd>.State { log.close() }
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
