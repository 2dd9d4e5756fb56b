import AppGroupStore
import Foundation

/// One enumerator call made in isolation, with nothing committed: what the conformance kit
/// (and FileProvider-style testing operations) need to check a provider's answers.
package struct ProbeRequest: Codable, Equatable, Sendable {
    /// Which enumerator method to call.
    package enum Kind: String, Codable, Sendable {
        case content
        case changes
    }

    package var kind: Kind
    /// The page (content) or anchor (changes) to start from.
    package var position: SyncPosition
    /// `suggestedPageSize` or `suggestedBatchSize` for this call.
    package var size: Int

    package init(kind: Kind, position: SyncPosition, size: Int) {
        self.kind = kind
        self.position = position
        self.size = size
    }
}

/// Everything one enumerator call did.
package struct ProbeResult: Codable, Equatable, Sendable {
    /// How the call ended, if it made a terminal call.
    package enum End: Codable, Equatable, Sendable {
        case page(SyncPosition)
        case content(Data)
        case batch(SyncPosition, moreComing: Bool)
        case error(code: String?, message: String)
    }

    /// A rule broken within the call.
    package struct Violation: Codable, Equatable, Sendable {
        package var rule: String
        package var message: String
    }

    /// Items from `didEnumerate` / `didUpdate`, in call order.
    package var items: [ContactRecord] = []
    /// Identifiers from `didDelete`, in call order.
    package var deleted: [String] = []
    /// The terminal call.
    package var end: End?
    /// Misuse within the call (second terminal call, calls after the terminal call).
    package var violations: [Violation] = []
    /// The method did not return within the time limit.
    package var timedOut = false
    /// One line per call.
    package var transcript: [String] = []
    /// How long the call took, in milliseconds, measured where the provider runs.
    package var milliseconds: Double = 0

    package init() {}
}

extension SyncEngine {
    /// Calls one enumerator method with a recording observer and commits nothing.
    package static func probe(
        _ request: ProbeRequest, driver: any EnumeratorDriver, timeoutSeconds: Double,
        clock: any SystemClock = ContinuousSystemClock()
    ) async -> ProbeResult {
        let transcript = Transcript()
        var result = ProbeResult()
        let started = clock.now()
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
        result.milliseconds = (clock.now() - started) * 1000
        transcript.record(result.timedOut ? "← timed out" : "← returned")
        result.transcript = transcript.all
        return result
    }

    private static func violation(_ failure: SyncFailure) -> ProbeResult.Violation {
        ProbeResult.Violation(rule: failure.rule?.id ?? "?", message: failure.description)
    }
}
