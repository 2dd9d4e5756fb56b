// bad-provider: known-bad providers for the conformance kit's newer rules, one bug per file. The bug
// is chosen by the environment variable BAD_PROVIDER_BUG (the provider inherits the environment of
// `contacts-host conformance`):
//
//   field-loss            FieldLossBug.swift              caught by F1
//   reused-identifier     ReusedIdentifierBug.swift       caught by D8
//   stale-final-anchor    StaleFinalAnchorBug.swift       caught by D10
//   oversized-after-launch OversizedAfterLaunchBug.swift  caught by W1
//   slow-page             SlowPageBug.swift               caught by C1 (enumerationTimeout)
//   anchor-from-now       AnchorFromNowBug.swift          caught by D9
//   forgets-handed-over   ForgetsHandedOverBug.swift      caught by D6 (and not D2: the kit judges what the system received)
//   hanging-invalidate    HangingInvalidateBug.swift      caught by L2 (and not L1 or L3)
//   case-folded-identifiers CaseFoldedIdentifiersBug.swift caught by C4 (identifier shapes)
//   dedupes-by-name       DedupesByNameBug.swift          caught by C4 (natural-key collisions)
//   birthday-through-date BirthdayThroughDateBug.swift    caught by F1 (the provider in another time zone)
//   relies-on-app-reset   ReliesOnAppResetBug.swift       fails E1; passes with --reset-calls-manager-reset
//   positional-change-batches PositionalChangeBatchesBug.swift caught by D11 (edits between batches)
//   whole-store-per-call  WholeStorePerCallBug.swift      caught by S2 (the kit at size, --contacts N)
//   manager-in-extension  ManagerInExtensionBug.swift     caught by W1 (R13: the manager is the app's)
//   escaping-child        EscapingChildBug.swift          passes; the kit ends the child and names it (a NOTE)
//   ties-in-set-order     TiesInSetOrderBug.swift         caught by C5 (a page of one name, asked again after a relaunch)
//   format-blind-changes  FormatBlindChangesBug.swift     caught by D2 (edits of case, spacing, a phone's punctuation)
//   snapshot-until-last-page SnapshotUntilLastPage.swift  passes (a legal design: pageExpired once content is done)
//   read-error-ends-content ReadErrorEndsContentBug.swift  caught by T1 (the store failing between content pages)
//   short-page-is-last    ShortPageIsLastBug.swift        caught by D3 (a contact of a later page deleted during content)
//   trimmed-log-without-expiry TrimmedLogWithoutExpiryBug.swift caught by E1 (more edits between two syncs than its log keeps)
//   local-time-anchors    LocalTimeAnchorsBug.swift       caught by D2 (the time zone changing between two syncs)
//   empty-when-unreadable-at-start EmptyWhenUnreadableAtStartBug.swift caught by T1 (the store torn when the provider starts)
//   exits-when-unreadable-at-start ExitsWhenUnreadableAtStartBug.swift caught by T1 (the same; never taken for a provider that cannot start)
//
// Each wraps the demo provider's correct enumerator and breaks exactly one thing (through the
// forwarding observers of KnownBadProviders, which also holds the four flaws of the bad-*-provider executables).

import ContactProvider
import ExampleProviders
import Foundation
import KnownBadProviders

@main
final class BadProvider: KnownBadProvider {
    override class func flawed(_ correct: DemoEnumerator) -> any ContactItemEnumerator {
        let bug = ProcessInfo.processInfo.environment["BAD_PROVIDER_BUG"] ?? ""
        switch bug {
        case "field-loss": return FieldLossEnumerator(wrapping: correct)
        case "reused-identifier": return ReusedIdentifierEnumerator(wrapping: correct)
        case "stale-final-anchor": return StaleFinalAnchorEnumerator(wrapping: correct)
        case "oversized-after-launch": return OversizedAfterLaunchEnumerator(wrapping: correct)
        case "slow-page": return SlowPageEnumerator(wrapping: correct)
        case "anchor-from-now": return AnchorFromNowEnumerator(wrapping: correct)
        case "forgets-handed-over": return ForgetsHandedOverEnumerator(wrapping: correct)
        case "hanging-invalidate": return HangingInvalidateEnumerator(wrapping: correct)
        case "case-folded-identifiers": return CaseFoldedIdentifiersEnumerator(wrapping: correct)
        case "dedupes-by-name": return DedupesByNameEnumerator(wrapping: correct)
        case "birthday-through-date": return BirthdayThroughDateEnumerator(wrapping: correct)
        case "relies-on-app-reset": return ReliesOnAppResetEnumerator(wrapping: correct)
        case "positional-change-batches": return PositionalChangeBatchesEnumerator(wrapping: correct)
        case "whole-store-per-call": return WholeStorePerCallEnumerator(wrapping: correct)
        case "manager-in-extension": return ManagerInExtensionEnumerator(wrapping: correct)
        case "escaping-child": return EscapingChildEnumerator(wrapping: correct)
        case "ties-in-set-order": return TiesInSetOrderEnumerator(wrapping: correct)
        case "format-blind-changes": return FormatBlindChangesEnumerator(wrapping: correct)
        case "snapshot-until-last-page": return SnapshotUntilLastPageEnumerator(wrapping: correct)
        case "read-error-ends-content": return ReadErrorEndsContentEnumerator(wrapping: correct)
        case "short-page-is-last": return ShortPageIsLastEnumerator(wrapping: correct)
        case "trimmed-log-without-expiry": return TrimmedLogWithoutExpiryEnumerator(wrapping: correct)
        case "local-time-anchors": return LocalTimeAnchorsEnumerator(wrapping: correct)
        case "empty-when-unreadable-at-start": return EmptyWhenUnreadableAtStartEnumerator(wrapping: correct)
        case "exits-when-unreadable-at-start": return ExitsWhenUnreadableAtStartEnumerator(wrapping: correct)
        default:
            FileHandle.standardError.write(
                Data("bad-provider: set BAD_PROVIDER_BUG (unknown: '\(bug)'); running without a bug\n".utf8))
            return correct
        }
    }
}
