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
        let (result, end) = try await invoke(
            "enumerateContent(in: \(page))", log: observer.log, unfinishedRule: .r20,
            timeout: configuration.pageTimeoutSeconds, transcript: transcript
        ) {
            await driver.enumerateContent(in: page, observer: observer)
        }
        try checkSize(
            result.items.count, suggested: configuration.pageSize, cap: configuration.hardCapMultiplier,
            rule: .r21, what: "page", report: &report)
        let ids = result.items.map(\.identifier)
        if Set(ids).count != ids.count {
            report.warnings.append(
                "\(FrameworkRule.r19): a page delivered the same identifier twice; the last value wins")
        }
        switch end {
        case .error(let code, let message):
            let result = try outcome(ofError: code, message: message, expiredAs: .pageExpired)
            recordStep("page", updated: 0, position: nil, expired: .pageExpired)
            return result
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
                itemsLimit: configuration.itemsLimit, overlapped: true)
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
                itemsLimit: configuration.itemsLimit)
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
        let (result, end) = try await invoke(
            "enumerateChanges(startingAt: \(anchor))", log: observer.log, unfinishedRule: .r30,
            timeout: configuration.pageTimeoutSeconds, transcript: transcript
        ) {
            await driver.enumerateChanges(from: anchor, observer: observer)
        }
        try checkSize(
            result.count, suggested: configuration.batchSize, cap: configuration.hardCapMultiplier,
            rule: .r31, what: "batch", report: &report)
        switch end {
        case .error(let code, let message):
            let result = try outcome(ofError: code, message: message, expiredAs: .changeAnchorExpired)
            recordStep("batch", updated: 0, position: nil, expired: .changeAnchorExpired)
            return result
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

    /// A page or batch that ended with an error: either expiry (R27, R38: the system drops its
    /// contacts and restarts content enumeration, reporting `expiredAs`), or the sync's failure.
    func outcome(
        ofError code: ProviderErrorCode?, message: String, expiredAs expiry: ProviderErrorCode
    ) throws -> StepOutcome {
        if code == .pageExpired || code == .changeAnchorExpired { return .expired(expiry) }
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
