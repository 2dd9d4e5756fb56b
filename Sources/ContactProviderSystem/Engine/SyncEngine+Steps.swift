import AppGroupStore
import CommandLineToolkit
import Foundation
import Synchronization

// One page or one batch of a sync: invoking the provider, checking what it delivered against the
// rules, and the outcome (the commit is SyncEngine+Commit.swift). Split from SyncEngine.swift, whose
// state it reads: the engine's stored properties are internal for that reason, not for other types.
extension SyncEngine {
    enum StepOutcome {
        case `continue`
        case done
        case expired(ProviderErrorCode)
    }

    func runContentPage(
        _ page: SyncPosition, driver: any EnumeratorDriver, configuration: DomainConfiguration,
        transcript: Transcript, report: inout SyncReport
    ) async throws -> StepOutcome {
        let observer = ContentObserverCore(
            suggestedPageSize: configuration.pageSize, transcript: transcript,
            pause: MidCallPause(runDirectory: paths.runDirectory))
        let (result, end) = try await invokeStep(
            "enumerateContent(in: \(page))", what: "page", log: observer.log, unfinishedRule: .r20, sizeRule: .r21,
            suggested: configuration.pageSize, size: \.items.count, configuration: configuration,
            transcript: transcript, report: &report
        ) {
            await driver.enumerateContent(in: page, observer: observer)
        }
        let distinct = IdentifierOrder.areDistinct(result.items)
        if !distinct {
            report.warnings.append(
                "\(FrameworkRule.r19): a page delivered the same identifier twice; the last value wins")
        }
        switch end {
        case .error(let code, let message):
            return try endedWithError(code, message: message, what: "page", expiredAs: .pageExpired)
        case .page(let next):
            guard !next.generationMarker.isEmpty else {
                throw SyncFailure.ruleViolation(
                    .r23, message: "didFinishEnumeratingPage(upTo:) was given an empty generation marker")
            }
            if page != .initial, next.generationMarker != page.generationMarker {
                throw SyncFailure.ruleViolation(
                    .r23,
                    message:
                        "the generation marker changed during content enumeration (page \(page) → next page \(next))")
            }
            if next == page {
                throw SyncFailure.ruleViolation(
                    .r22,
                    message:
                        "didFinishEnumeratingPage(upTo:) returned the current page \(page); the enumeration would never end"
                )
            }
            try commit(
                upsert: result.items, delete: [], meta: SyncState(phase: .content, nextPage: next),
                itemsLimit: configuration.itemsLimit, overlapped: true, upsertsAreDistinct: distinct)
            report.pages += 1
            report.updated += result.items.count
            recordStep("page", updated: result.items.count, position: next)
            return .continue
        case .content(let marker):
            guard !marker.isEmpty else {
                throw SyncFailure.ruleViolation(
                    .r23, message: "didFinishEnumeratingContent(upTo:) was given an empty generation marker")
            }
            if page != .initial, marker != page.generationMarker {
                throw SyncFailure.ruleViolation(
                    .r23, message: "didFinishEnumeratingContent(upTo:) used a marker different from the pages' marker")
            }
            // R25: the first change enumeration starts at (marker, 0).
            let anchor = SyncPosition(generationMarker: marker, offset: 0)
            try commit(
                upsert: result.items, delete: [], meta: SyncState(phase: .changes, anchor: anchor),
                itemsLimit: configuration.itemsLimit, upsertsAreDistinct: distinct)
            report.pages += 1
            report.updated += result.items.count
            recordStep("page", updated: result.items.count, position: anchor)
            return .done
        }
    }

    func runChangeBatch(
        _ anchor: SyncPosition, driver: any EnumeratorDriver, configuration: DomainConfiguration,
        transcript: Transcript, report: inout SyncReport
    ) async throws -> StepOutcome {
        let observer = ChangeObserverCore(
            suggestedBatchSize: configuration.batchSize, transcript: transcript,
            pause: MidCallPause(runDirectory: paths.runDirectory))
        let (result, end) = try await invokeStep(
            "enumerateChanges(startingAt: \(anchor))", what: "batch", log: observer.log, unfinishedRule: .r30,
            sizeRule: .r31, suggested: configuration.batchSize, size: \.count, configuration: configuration,
            transcript: transcript, report: &report
        ) {
            await driver.enumerateChanges(from: anchor, observer: observer)
        }
        switch end {
        case .error(let code, let message):
            return try endedWithError(code, message: message, what: "batch", expiredAs: .changeAnchorExpired)
        case .batch(let next, let moreComing):
            if moreComing, next == anchor {
                throw SyncFailure.ruleViolation(
                    .r40,
                    message:
                        "moreComing is true but the anchor did not advance from \(anchor); the system would loop forever"
                )
            }
            if !moreComing, next == anchor, result.count > 0 {
                report.warnings.append(
                    "\(FrameworkRule.r40): a batch with \(counted(result.count, "change")) returned the starting anchor \(anchor)"
                )
            }
            // Apply in call order (R32 upsert, R33 delete; unknown ids are a no-op) and commit once.
            var fold = ChangeFold()
            for change in result.changes {
                switch change {
                case .update(let records):
                    for item in records { fold.upsert(item) }
                case .delete(let identifiers):
                    for identifier in identifiers where state.contains(identifier) || fold.isUpserted(identifier) {
                        fold.delete(identifier)
                    }
                }
            }
            let upsertList = fold.updated
            let deleteList = fold.deleted
            if upsertList.isEmpty, deleteList.isEmpty, next == anchor {
                // Nothing changed and the anchor stays: there is nothing to commit (and no fsync to pay).
                report.batches += 1
                recordStep("batch", updated: 0, position: nil)
                return moreComing ? .continue : .done
            }
            try commit(
                upsert: upsertList, delete: deleteList, meta: SyncState(phase: .changes, anchor: next),
                itemsLimit: configuration.itemsLimit, overlapped: moreComing)
            report.batches += 1
            report.updated += upsertList.count
            report.deleted += deleteList.count
            recordStep("batch", updated: upsertList.count, deleted: deleteList.count, position: next)
            return moreComing ? .continue : .done
        }
    }

    /// The start a page and a batch share (issue 46): the provider's call under the call limit (R41),
    /// which must end (`unfinishedRule`: R20, R30), then what it delivered, `size` of it, against the
    /// suggested size (`sizeRule`: R21, R31; more than the hard cap times it fails the sync).
    func invokeStep<Payload, End>(
        _ call: String, what: String, log: ObserverCallLog<Payload, End>, unfinishedRule: FrameworkRule,
        sizeRule: FrameworkRule, suggested: Int, size: (ObserverCallLog<Payload, End>.State) -> Int,
        configuration: DomainConfiguration, transcript: Transcript, report: inout SyncReport,
        _ operation: @escaping @Sendable () async -> Void
    ) async throws -> (recorded: ObserverCallLog<Payload, End>.State, end: End) {
        let (recorded, end) = try await invoke(
            call, log: log, unfinishedRule: unfinishedRule, timeout: configuration.pageTimeoutSeconds,
            transcript: transcript, operation)
        try checkSize(
            size(recorded), suggested: suggested, cap: configuration.hardCapMultiplier, rule: sizeRule, what: what,
            report: &report)
        return (recorded, end)
    }

    /// A page or batch (`what`) that ended with an error: either expiry (R27, R38: the system drops
    /// its contacts and restarts content enumeration, reporting `expiredAs`; the step is recorded),
    /// or the sync's failure.
    func endedWithError(
        _ code: ProviderErrorCode?, message: String, what: String, expiredAs expiry: ProviderErrorCode
    ) throws -> StepOutcome {
        if code == .pageExpired || code == .changeAnchorExpired {
            recordStep(what, updated: 0, position: nil, expired: expiry)
            return .expired(expiry)
        }
        if let code { throw SyncFailure.provider(code, message: message) }
        throw SyncFailure.providerReported(message)
    }

    func checkSize(
        _ count: Int, suggested: Int, cap: Int, rule: FrameworkRule, what: String, report: inout SyncReport
    ) throws {
        if count > suggested.multipliedReportingOverflow(by: cap).partialValue {
            throw SyncFailure.ruleViolation(
                rule,
                message: "a \(what) of \(counted(count, "item")) is more than \(cap)× the suggested size \(suggested)")
        }
        if count > suggested {
            report.warnings.append(
                "\(rule): a \(what) of \(counted(count, "item")) exceeds the suggested size \(suggested)")
        }
    }
}
