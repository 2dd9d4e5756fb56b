// The catalogue of bad-provider's flaws: one value of BAD_PROVIDER_BUG each, the one place a flaw
// is named, documented (what it breaks, the rule that catches it) and made (issue 46: the known-bad
// providers were five executables and two variables).

import ContactProvider
import ExampleProviders
import KnownBadProviders

/// A flaw of `bad-provider`, chosen by `BAD_PROVIDER_BUG=<raw value>`; each breaks exactly one
/// thing of a correct enumerator (the demo provider's, or the template's for a provider with its
/// own store, checked with `--backend seed-json`).
enum Flaw: String, CaseIterable {
    /// Each page's generation marker changes (R23): caught by C2. `ChangingMarkerEnumerator`.
    case changingMarker = "changing-marker"
    /// A batch says moreComing without advancing its anchor (R40): caught by D4 (and V1). `StuckMoreComingEnumerator`.
    case stuckMoreComing = "stuck-more-coming"
    /// Change enumeration starts from now, losing edits made during content (R29): caught by D3. `MarkerAfterSnapshotEnumerator`.
    case markerAfterSnapshot = "marker-after-snapshot"
    /// A page's calls are made after enumerateContent returned (R20): caught by C1. `CallsAfterReturnEnumerator`.
    case callsAfterReturn = "calls-after-return"
    /// Only the first value of multi-valued fields survives: caught by F1. FieldLossBug.swift.
    case fieldLoss = "field-loss"
    /// Updates for an identifier once reported deleted are dropped: caught by D8. ReusedIdentifierBug.swift.
    case reusedIdentifier = "reused-identifier"
    /// The last batch returns the anchor it started from: caught by D10. StaleFinalAnchorBug.swift.
    case staleFinalAnchor = "stale-final-anchor"
    /// The first change batch after launch ignores suggestedBatchSize: caught by W1. OversizedAfterLaunchBug.swift.
    case oversizedAfterLaunch = "oversized-after-launch"
    /// Every content page outlasts the page timeout (BAD_PROVIDER_DELAY_SECONDS): caught by C1 (enumerationTimeout). SlowPageBug.swift.
    case slowPage = "slow-page"
    /// The last batch's anchor is the database's head when the batch ends: caught by D9. AnchorFromNowBug.swift.
    case anchorFromNow = "anchor-from-now"
    /// The change log is consumed as changes are handed over: caught by D6 (not D2). ForgetsHandedOverBug.swift.
    case forgetsHandedOver = "forgets-handed-over"
    /// invalidate() never returns: caught by L2 (not L1 or L3). HangingInvalidateBug.swift.
    case hangingInvalidate = "hanging-invalidate"
    /// Identifiers are handed over lowercased: caught by C4 (identifier shapes). CaseFoldedIdentifiersBug.swift.
    case caseFoldedIdentifiers = "case-folded-identifiers"
    /// Contacts of the same name are deduplicated: caught by C4 (natural-key collisions). DedupesByNameBug.swift.
    case dedupesByName = "dedupes-by-name"
    /// A birthday goes through Date and Calendar.current: caught by F1 (the provider in another time zone). BirthdayThroughDateBug.swift.
    case birthdayThroughDate = "birthday-through-date"
    /// A reset store is noticed only through ContactProviderManager.reset(): fails E1, passes with --reset-calls-manager-reset. ReliesOnAppResetBug.swift.
    case reliesOnAppReset = "relies-on-app-reset"
    /// Each batch recomputes the session's changes and hands them over by position: caught by D11. PositionalChangeBatchesBug.swift.
    case positionalChangeBatches = "positional-change-batches"
    /// Every page and batch reads the whole store: caught by S2 (the kit at size, --contacts N). WholeStorePerCallBug.swift.
    case wholeStorePerCall = "whole-store-per-call"
    /// The extension creates a ContactProviderManager (R13: the manager is the app's): caught by W1. ManagerInExtensionBug.swift.
    case managerInExtension = "manager-in-extension"
    /// A helper process outlives the extension: passes; the kit ends the child and names it (a NOTE). EscapingChildBug.swift.
    case escapingChild = "escaping-child"
    /// Contacts of one name come in Set order: caught by C5 (a page asked again after a relaunch). TiesInSetOrderBug.swift.
    case tiesInSetOrder = "ties-in-set-order"
    /// Changes are detected by a case-, space- and punctuation-blind fingerprint: caught by D2. FormatBlindChangesBug.swift.
    case formatBlindChanges = "format-blind-changes"
    /// Not a flaw: pageExpired once content is done, a legal design; passes. SnapshotUntilLastPage.swift.
    case snapshotUntilLastPage = "snapshot-until-last-page"
    /// Not a flaw: generation markers and anchors as opaque binary, a legal design; passes. OpaqueAnchors.swift.
    case opaqueAnchors = "opaque-anchors"
    /// Not a flaw: an empty initial page that names the page to ask for next, a legal design; passes. EmptyFirstPage.swift.
    case emptyFirstPage = "empty-first-page"
    /// Not a flaw: a change log of 100 changes that expires an older anchor, a legal design (the twin of trimmed-log-without-expiry); passes. TrimmedLogWithExpiry.swift.
    case trimmedLogWithExpiry = "trimmed-log-with-expiry"
    /// A read error between content pages ends the content as a success: caught by T1. ReadErrorEndsContentBug.swift.
    case readErrorEndsContent = "read-error-ends-content"
    /// A short page is taken for the last one: caught by D3 (a later page's contact deleted during content). ShortPageIsLastBug.swift.
    case shortPageIsLast = "short-page-is-last"
    /// An anchor older than a trimmed change log is answered from its start: caught by E1. TrimmedLogWithoutExpiryBug.swift.
    case trimmedLogWithoutExpiry = "trimmed-log-without-expiry"
    /// Anchors hold a local wall-clock time: caught by D2 (the time zone changing between two syncs). LocalTimeAnchorsBug.swift.
    case localTimeAnchors = "local-time-anchors"
    /// Each next page offset is one short (the index of the page's last item): caught by C3, named as that mistake (issue 43, item 8). RepeatsLastItemBug.swift.
    case repeatsLastItem = "repeats-last-item"
    /// `moreComing` is "more than one change left": caught by D10, named as the off by one (issue 43, item 8). EndsChangesOneEarlyBug.swift.
    case endsChangesOneEarly = "ends-changes-one-early"
    /// Deletion records are pruned from the change log while older anchors are still answered: caught by E1, named as that mistake (issue 43, item 8). PrunesDeletionsBug.swift.
    case prunesDeletions = "prunes-deletions"
    /// The newer of two anchor versions is chosen by comparing their text ("18" < "8"): caught by D2, named as that mistake (issue 43, item 8). VersionsAsTextBug.swift.
    case versionsAsText = "versions-as-text"
    /// The store is read once at start and an unreadable one kept as an empty list: caught by T1 (the store torn when the provider starts, issue 43, item 12). EmptyWhenUnreadableAtStartBug.swift.
    case emptyWhenUnreadableAtStart = "empty-when-unreadable-at-start"
    /// The process ends when the store cannot be read at start: caught by T1, never taken for a provider that cannot start (issue 43, item 12). ExitsWhenUnreadableAtStartBug.swift.
    case exitsWhenUnreadableAtStart = "exits-when-unreadable-at-start"
    /// Own store (`--backend seed-json`): the phone is left out of the change fingerprint: caught by D2 (issue 30, item 11). FingerprintWithoutPhoneBug.swift.
    case fingerprintWithoutPhone = "fingerprint-without-phone"
    /// Own store (`--backend carddav:URL`, the carddav-provider's enumerator): a server that answers 503 for a moment is answered with an expiry: caught by T1 (issue 43, item 10). ExpiresOnReadErrorBug.swift.
    case expiresOnServerError = "expires-on-server-error"
    /// The App Group database (the demo provider's `ProviderDataSource`): a read that fails for a moment is answered with an expiry: caught by T1 (issue 43, item 10). ExpiresOnReadErrorBug.swift.
    case expiresOnDatabaseError = "expires-on-database-error"
    /// Own store (`--backend seed-json`): a read that fails for a moment is answered with an expiry: caught by T1 (issue 30, item 10). ExpiresOnReadErrorBug.swift.
    case expiresOnReadError = "expires-on-read-error"

    /// The root enumerator with this flaw: the demo provider's correct enumerator wrapped by it, or
    /// for the own-store flaws the template's (Examples/template-provider, linked here) or the CardDAV
    /// example's (Examples/carddav-provider, linked in CardDAV/).
    func enumerator() -> any ContactItemEnumerator {
        let correct = DemoEnumerator()
        switch self {
        case .changingMarker: return ChangingMarkerEnumerator(wrapping: correct)
        case .stuckMoreComing: return StuckMoreComingEnumerator(wrapping: correct)
        case .markerAfterSnapshot: return MarkerAfterSnapshotEnumerator(wrapping: correct)
        case .callsAfterReturn: return CallsAfterReturnEnumerator(wrapping: correct)
        case .fieldLoss: return FieldLossEnumerator(wrapping: correct)
        case .reusedIdentifier: return ReusedIdentifierEnumerator(wrapping: correct)
        case .staleFinalAnchor: return StaleFinalAnchorEnumerator(wrapping: correct)
        case .oversizedAfterLaunch: return OversizedAfterLaunchEnumerator(wrapping: correct)
        case .slowPage: return SlowPageEnumerator(wrapping: correct)
        case .anchorFromNow: return AnchorFromNowEnumerator(wrapping: correct)
        case .forgetsHandedOver: return ForgetsHandedOverEnumerator(wrapping: correct)
        case .hangingInvalidate: return HangingInvalidateEnumerator(wrapping: correct)
        case .caseFoldedIdentifiers: return CaseFoldedIdentifiersEnumerator(wrapping: correct)
        case .dedupesByName: return DedupesByNameEnumerator(wrapping: correct)
        case .birthdayThroughDate: return BirthdayThroughDateEnumerator(wrapping: correct)
        case .reliesOnAppReset: return ReliesOnAppResetEnumerator(wrapping: correct)
        case .positionalChangeBatches: return PositionalChangeBatchesEnumerator(wrapping: correct)
        case .wholeStorePerCall: return WholeStorePerCallEnumerator(wrapping: correct)
        case .managerInExtension: return ManagerInExtensionEnumerator(wrapping: correct)
        case .escapingChild: return EscapingChildEnumerator(wrapping: correct)
        case .tiesInSetOrder: return TiesInSetOrderEnumerator(wrapping: correct)
        case .formatBlindChanges: return FormatBlindChangesEnumerator(wrapping: correct)
        case .snapshotUntilLastPage: return SnapshotUntilLastPageEnumerator(wrapping: correct)
        case .opaqueAnchors: return OpaqueAnchorsEnumerator(wrapping: correct)
        case .emptyFirstPage: return EmptyFirstPageEnumerator(wrapping: correct)
        case .trimmedLogWithExpiry: return TrimmedLogWithExpiryEnumerator(wrapping: correct)
        case .readErrorEndsContent: return ReadErrorEndsContentEnumerator(wrapping: correct)
        case .shortPageIsLast: return ShortPageIsLastEnumerator(wrapping: correct)
        case .trimmedLogWithoutExpiry: return TrimmedLogWithoutExpiryEnumerator(wrapping: correct)
        case .localTimeAnchors: return LocalTimeAnchorsEnumerator(wrapping: correct)
        case .repeatsLastItem: return RepeatsLastItemEnumerator(wrapping: correct)
        case .endsChangesOneEarly: return EndsChangesOneEarlyEnumerator(wrapping: correct)
        case .prunesDeletions: return PrunesDeletionsEnumerator(wrapping: correct)
        case .versionsAsText: return VersionsAsTextEnumerator(wrapping: correct)
        case .emptyWhenUnreadableAtStart: return EmptyWhenUnreadableAtStartEnumerator(wrapping: correct)
        case .exitsWhenUnreadableAtStart: return ExitsWhenUnreadableAtStartEnumerator(wrapping: correct)
        case .fingerprintWithoutPhone: return FingerprintWithoutPhoneEnumerator()
        case .expiresOnServerError:
            // The CardDAV example's App Group identifier (the simulator maps every one to the App Group).
            let container = FileManager.default.containerURL(
                forSecurityApplicationGroupIdentifier: "group.com.example.carddavprovider")
            return ExpiresOnReadErrorEnumerator(
                wrapping: CardDAVEnumerator(container: container ?? URL(fileURLWithPath: ".")))
        case .expiresOnReadError: return ExpiresOnReadErrorEnumerator(wrapping: RootContainerEnumerator())
        case .expiresOnDatabaseError: return ExpiresOnReadErrorEnumerator(wrapping: correct)
        }
    }
}
