import AppGroupStore
import Foundation

/// One enumerator call made in isolation, with nothing committed: what the conformance kit
/// (and FileProvider-style testing operations) need to check a provider's answers.
public struct ProbeRequest: Codable, Equatable, Sendable {
    /// Which enumerator method to call.
    public enum Kind: String, Codable, Sendable {
        case content
        case changes
    }

    public var kind: Kind
    /// The page (content) or anchor (changes) to start from.
    public var position: SyncPosition
    /// `suggestedPageSize` or `suggestedBatchSize` for this call.
    public var size: Int

    public init(kind: Kind, position: SyncPosition, size: Int) {
        self.kind = kind
        self.position = position
        self.size = size
    }
}

/// Everything one enumerator call did.
public struct ProbeResult: Codable, Equatable, Sendable {
    /// How the call ended, if it made a terminal call.
    public enum End: Codable, Equatable, Sendable {
        case page(SyncPosition)
        case content(Data)
        case batch(SyncPosition, moreComing: Bool)
        case error(code: String?, message: String)
    }

    /// A rule broken within the call.
    public struct Violation: Codable, Equatable, Sendable {
        public var rule: String
        public var message: String
    }

    /// Items from `didEnumerate` / `didUpdate`, in call order.
    public var items: [ContactRecord] = []
    /// Identifiers from `didDelete`, in call order.
    public var deleted: [String] = []
    /// The terminal call.
    public var end: End?
    /// Misuse within the call (second terminal call, calls after the terminal call).
    public var violations: [Violation] = []
    /// The method did not return within the time limit.
    public var timedOut = false
    /// One line per call.
    public var transcript: [String] = []

    public init() {}
}

extension SyncEngine {
    /// Calls one enumerator method with a recording observer and commits nothing.
    public static func probe(
        _ request: ProbeRequest, driver: any EnumeratorDriver, timeoutSeconds: Double,
        clock: any SystemClock = ContinuousSystemClock()
    ) async -> ProbeResult {
        let transcript = Transcript()
        var result = ProbeResult()
        switch request.kind {
        case .content:
            let observer = ContentObserverCore(suggestedPageSize: request.size, transcript: transcript)
            transcript.record("→ enumerateContent(in: \(request.position))")
            let finished = await race(timeoutSeconds, clock: clock) {
                await driver.enumerateContent(in: request.position, observer: observer)
            }
            let state = observer.close()
            result.timedOut = !finished
            result.items = state.items
            result.violations = state.violations.map(violation)
            switch state.end {
            case .page(let next): result.end = .page(next)
            case .content(let marker): result.end = .content(marker)
            case .error(let code, let message): result.end = .error(code: code?.rawValue, message: message)
            case nil: break
            }
        case .changes:
            let observer = ChangeObserverCore(suggestedBatchSize: request.size, transcript: transcript)
            transcript.record("→ enumerateChanges(startingAt: \(request.position))")
            let finished = await race(timeoutSeconds, clock: clock) {
                await driver.enumerateChanges(from: request.position, observer: observer)
            }
            let state = observer.close()
            result.timedOut = !finished
            for change in state.changes {
                switch change {
                case .update(let records): result.items.append(contentsOf: records)
                case .delete(let identifiers): result.deleted.append(contentsOf: identifiers)
                }
            }
            result.violations = state.violations.map(violation)
            switch state.end {
            case .batch(let anchor, let moreComing): result.end = .batch(anchor, moreComing: moreComing)
            case .error(let code, let message): result.end = .error(code: code?.rawValue, message: message)
            case nil: break
            }
        }
        transcript.record(result.timedOut ? "← timed out" : "← returned")
        result.transcript = transcript.all
        return result
    }

    private static func violation(_ failure: SyncFailure) -> ProbeResult.Violation {
        ProbeResult.Violation(rule: failure.rule ?? "?", message: failure.description)
    }
}
