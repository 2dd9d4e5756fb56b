// The framework rules R1–R47, one value each. FRAMEWORK-RULES.md is checked against these by
// RuleDocumentsTests (the file must be exactly their rendering, FrameworkRule.documentMarkdown).

extension FrameworkRule {
    /// R1: `ContactProviderManager()` (no argument) manages `DefaultContactProviderDomain`.
    public static let r1 = FrameworkRule(
        number: 1, source: "Doc", section: .manager,
        text: #"""
            `ContactProviderManager()` (no argument) manages `DefaultContactProviderDomain`.
            `manager.domain.identifier == DefaultContactProviderDomain.identifier`.
            """#)
    /// R2: Creating a manager when the host app has no discoverable Contact Provider extension throws …
    public static let r2 = FrameworkRule(
        number: 2, source: "Doc", section: .manager,
        text: #"""
            Creating a manager when the host app has no discoverable Contact Provider
            extension throws `.extensionNotFound`. On an unsupported platform it throws
            `.featureNotAvailable`.
            """#)
    /// R3: Creating a manager with any identifier other than `DefaultContactProviderDomain.identifier` …
    public static let r3 = FrameworkRule(
        number: 3, source: "Forum", section: .manager,
        text: #"""
            Creating a manager with any identifier other than
            `DefaultContactProviderDomain.identifier` throws `.domainNotRegistered`. (Simulator policy:
            this mirrors observed iOS 18 behaviour.)
            """#)
    /// R4: Creating a manager registers the default domain if needed.
    public static let r4 = FrameworkRule(
        number: 4, source: "Doc", section: .manager,
        text: #"""
            Creating a manager registers the default domain if needed. A second manager for
            the same domain sees the same `isEnabled` state, i.e. the state is per domain, not per
            manager instance.
            """#)
    /// R5: `enable()` on a disabled domain presents a consent step and suspends until the user decides.
    public static let r5 = FrameworkRule(
        number: 5, source: "Doc", section: .manager,
        text: #"""
            `enable()` on a disabled domain presents a consent step and suspends until the
            user decides. Approval → returns normally and `isEnabled == true`. Dismissal or denial →
            throws `.deniedByUser` and `isEnabled` stays `false`. (The simulator needs an injectable
            "user decision".)
            """#)
    /// R6: `enable()` on an already-enabled domain returns without prompting.
    public static let r6 = FrameworkRule(
        number: 6, source: "Doc \"if necessary\" / Inferred", section: .manager,
        text: #"""
            `enable()` on an already-enabled domain returns
            without prompting.
            """#)
    /// R7: Before the domain is enabled, the system never runs the extension: no `init`, no …
    public static let r7 = FrameworkRule(
        number: 7, source: "Doc", section: .manager,
        text: #"""
            Before the domain is enabled, the system never runs the extension: no `init`,
            no `configure(for:)`, no enumeration. The result of `signalEnumerator` on a disabled domain
            is **undocumented**; the simulator must pick one (suggest: throw or no-op, and document the
            choice).
            """#)
    /// R8: `disable()` deletes every contact the domain provided (the system store for that domain becomes …
    public static let r8 = FrameworkRule(
        number: 8, source: "Doc", section: .manager,
        text: #"""
            `disable()` deletes every contact the domain provided (the system store for
            that domain becomes empty) and sets `isEnabled == false`. An enumeration in flight ends with
            `.extensionInvalidated`.
            """#)
    /// R9: `reset()` deletes every contact the domain provided and discards sync state.
    public static let r9 = FrameworkRule(
        number: 9, source: "Doc", section: .manager,
        text: #"""
            `reset()` deletes every contact the domain provided and discards sync state. The
            **next** extension invocation starts a fresh content enumeration at `.initialPage`, even if a
            content enumeration had completed before. An enumeration in flight ends with
            `.extensionInvalidated`. Whether `isEnabled` is unchanged is unstated. [Inferred: unchanged]
            """#)
    /// R10: `manager.invalidate()` causes exactly one call to the extension's `invalidate()`.
    public static let r10 = FrameworkRule(
        number: 10, source: "Doc", section: .manager,
        text: #"""
            `manager.invalidate()` causes exactly one call to the extension's
            `invalidate()`. An enumeration in flight ends with `.extensionInvalidated`.
            """#)
    /// R11: If the extension's `invalidate()` does not return within the system time limit, the failure is …
    public static let r11 = FrameworkRule(
        number: 11, source: "Doc", section: .manager,
        text: #"""
            If the extension's `invalidate()` does not return within the system time limit,
            the failure is `.extensionInvalidateTimeout`. The limit is undocumented, so make it
            configurable in the simulator.
            """#)
    /// R12: `signalEnumerator(for:)` loads the extension if it is not running and asks for an enumeration of …
    public static let r12 = FrameworkRule(
        number: 12, source: "Doc", section: .manager,
        text: #"""
            `signalEnumerator(for:)` loads the extension if it is not running and asks for
            an enumeration of the collection (default `.rootContainer`). [Inferred] The kind of
            enumeration follows the saved state:
            - an unfinished content enumeration resumes from the last committed page;
            - no content enumeration yet (or after a reset or expiry) starts at `.initialPage`;
            - a completed content enumeration leads to a change enumeration from the last committed
              anchor.
            """#)
    /// R13: `ContactProviderManager` is app-only.
    public static let r13 = FrameworkRule(
        number: 13, source: "Doc", section: .manager,
        text: #"""
            `ContactProviderManager` is app-only. Using it from inside the extension is
            unsupported. (Simulator: a diagnostic or throw is acceptable.)
            - Simulator: created in an extension process, its initializer throws `.extensionNotFound`
              (the one error Apple documents for an extension the framework cannot discover; an
              extension's bundle contains none), and the sync's report warns (kit rule W1).
            """#)
    /// R14: `DefaultContactProviderDomain().displayName` equals the host app's bundle display name, and …
    public static let r14 = FrameworkRule(
        number: 14, source: "Doc", section: .manager,
        text: #"""
            `DefaultContactProviderDomain().displayName` equals the host app's bundle
            display name, and `DefaultContactProviderDomain.identifier` is the same constant for all apps.
            - [Forum 101754] Every app and extension process has `Bundle.main.bundleIdentifier`, and an
              extension's identifier is prefixed by its app's (Xcode refuses to embed it otherwise).
              Simulator: the bundle from the Xcode project's build settings, else
              `com.example.<executable name>`; the display name is the containing app's when known,
              else the App Group's name.
            """#)
    /// R15: When the system launches the extension, it instantiates the `@main` type through `init()` and …
    public static let r15 = FrameworkRule(
        number: 15, source: "Doc", section: .extensionLifecycle,
        text: #"""
            When the system launches the extension, it instantiates the `@main` type
            through `init()` and calls `configure(for:)` **before** any `enumerator(for:)`,
            `enumerateContent` or `enumerateChanges` call.
            - The domain passed has the manager's identifier. For the default domain, its displayName is
              the app name.
            - [Inferred] `configure(for:)` is called once per extension instance.
            """#)
    /// R16: `enumerator(for:)` is called with `.rootContainer`.
    public static let r16 = FrameworkRule(
        number: 16, source: "Doc", section: .extensionLifecycle,
        text: #"""
            `enumerator(for:)` is called with `.rootContainer`. (The simulator only ever
            passes `.rootContainer`.)
            """#)
    /// R17: Before terminating the extension, the system calls the extension's `invalidate()`.
    public static let r17 = FrameworkRule(
        number: 17, source: "Doc", section: .extensionLifecycle,
        text: #"""
            Before terminating the extension, the system calls the extension's
            `invalidate()`. The enumerator's `invalidate()` is likewise called before termination.
            - The call order between the two is undocumented. [Inferred] enumerator first, then
              extension, or concurrently.
            - No observer callbacks are accepted after invalidation. [Inferred]
            """#)
    /// R18: A new content enumeration's first call is `enumerateContent(in: .initialPage, for:)`.
    public static let r18 = FrameworkRule(
        number: 18, source: "Doc", section: .content,
        text: #"""
            A new content enumeration's first call is
            `enumerateContent(in: .initialPage, for:)`.
            """#)
    /// R19: Within one `enumerateContent` call:
    public static let r19 = FrameworkRule(
        number: 19, source: "Doc", section: .content,
        text: #"""
            Within one `enumerateContent` call:
            - the extension may call `didEnumerate(_:)` zero or more times;
            - then it must make **exactly one** terminal call: `didFinishEnumeratingPage(upTo:)`,
              `didFinishEnumeratingContent(upTo:)` or `didFinishEnumeratingContentWithError(_:)`.
            - A conformance checker should flag: (a) no terminal call; (b) two terminal calls; (c)
              `didEnumerate` after the terminal call. (b) and (c) are inferred misuse.
            """#)
    /// R20: The terminal call must happen **before the `async` method returns**.
    public static let r20 = FrameworkRule(
        number: 20, source: "Forum 761601 + Inferred", section: .content,
        text: #"""
            The terminal call must happen **before the `async` method
            returns**. A developer who returned early and called the observer later from a completion
            handler saw `enumerateContent` invoked repeatedly. The simulator should treat a return
            without a terminal call as a failed or retried page.
            https://developer.apple.com/forums/thread/761601
            - Simulator: the page fails at once (no loop to diagnose), and the message says what iOS
              does with that code (`enumerateContent` again and again) and how to fix it.
            """#)
    /// R21: The total number of items across a page's `didEnumerate` calls should be ≤ …
    public static let r21 = FrameworkRule(
        number: 21, source: "Doc", section: .content,
        text: #"""
            The total number of items across a page's `didEnumerate` calls should be
            ≤ `observer.suggestedPageSize`. Exceeding it is allowed but discouraged.
            - Simulator: report a warning. [Inferred] Optionally hard-fail above 100× the suggestion, as
              FileProvider does.
            """#)
    /// R22: Call `didFinishEnumeratingPage(upTo: next)` **only** if items remain after this page.
    public static let r22 = FrameworkRule(
        number: 22, source: "Doc", section: .content,
        text: #"""
            Call `didFinishEnumeratingPage(upTo: next)` **only** if items remain after this
            page. The system then calls `enumerateContent(in: next, …)` to continue, and `next` is
            persisted as the resume point.
            """#)
    /// R23: Generation-marker rules for pages:
    public static let r23 = FrameworkRule(
        number: 23, source: "Sample", section: .content,
        text: #"""
            Generation-marker rules for pages:
            - (a) `nextPage.generationMarker` must be **non-empty**. A page with an empty marker is a
              programmer error.
            - (b) For a page other than `.initialPage`, `nextPage.generationMarker ==
              page.generationMarker`.
            - (c) [Doc] All pages after `.initialPage` in one content enumeration share one marker.
            - Simulator: a violation fails the enumeration.
            """#)
    /// R24: `didFinishEnumeratingPage` and `didFinishEnumeratingContent` are **commit points**.
    public static let r24 = FrameworkRule(
        number: 24, source: "Doc", section: .content,
        text: #"""
            `didFinishEnumeratingPage` and `didFinishEnumeratingContent` are **commit
            points**. Items delivered by `didEnumerate` become visible in the system contact store only
            when the page's terminal success call happens.
            - [Inferred] Items from a page that ends in error are discarded, not committed.
            - [Framework binary] A page or batch the system fails to save is asked for again
              (`maxPageRetries`, "will retry enumerating the page"; `maxSyncAnchorRetries` for a
              batch), once in the decompiled logic; then the sync fails with `.cannotEnumerate`
              ("did fail to save"). The simulator does the same.
            """#)
    /// R25: After `didFinishEnumeratingContent(upTo: m)`:
    public static let r25 = FrameworkRule(
        number: 25, source: "Doc", section: .content,
        text: #"""
            After `didFinishEnumeratingContent(upTo: m)`:
            - the content enumeration is complete;
            - every later enumeration is a change enumeration, the first one starting at an anchor whose
              `generationMarker == m`. [Inferred] with `offset == 0`;
            - the system never calls `enumerateContent` again unless something forces a restart: reset,
              `pageExpired`/`changeAnchorExpired`, or possibly after disable + enable. [Inferred]
            """#)
    /// R26: Items may come in any order, but for a given (generation, offset) the extension must return the …
    public static let r26 = FrameworkRule(
        number: 26, source: "Doc", section: .content,
        text: #"""
            Items may come in any order, but for a given (generation, offset) the extension
            must return the same items: **deterministic and resumable**. A test: run page N twice from
            the same `ContactItemPage` and compare the outputs.
            """#)
    /// R27: `didFinishEnumeratingContentWithError(ContactProviderError.pageExpired)` makes the system …
    public static let r27 = FrameworkRule(
        number: 27, source: "Doc", section: .content,
        text: #"""
            `didFinishEnumeratingContentWithError(ContactProviderError.pageExpired)` makes
            the system discard its locally cached data (all committed items of the domain) and restart
            the content enumeration at `.initialPage`.
            """#)
    /// R28: Any other error passed to `didFinishEnumeratingContentWithError`: if "resumable", the system …
    public static let r28 = FrameworkRule(
        number: 28, source: "Sample", section: .content,
        text: #"""
            Any other error passed to `didFinishEnumeratingContentWithError`: if
            "resumable", the system later resumes from the **last successfully completed page**, not from
            the start.
            - Which errors count as resumable is undocumented. [Inferred] Treat everything except the
              expiration errors and `.extensionInvalidated` as resumable.
            """#)
    /// R29: Changes to the data store that happen *during* content enumeration are not required to appear in it.
    public static let r29 = FrameworkRule(
        number: 29, source: "Doc", section: .content,
        text: #"""
            Changes to the data store that happen *during* content enumeration are not
            required to appear in it. They must be delivered by the first change enumeration, which
            starts from the content marker.
            - So the marker must describe a state **at or before** the content snapshot. Carried over
              from FileProvider; see §3.
            """#)
    /// R30: Each `enumerateChanges(startingAt: a, for:)` call:
    public static let r30 = FrameworkRule(
        number: 30, source: "Doc", section: .changes,
        text: #"""
            Each `enumerateChanges(startingAt: a, for:)` call:
            - the extension may call `didUpdate(_:)` and `didDelete(_:)` zero or more times, in any
              interleaving;
            - then it must make **exactly one** terminal call: `didFinishEnumeratingChanges(upTo:
              moreComing:)` or `didFinishEnumeratingChangesWithError(_:)`.
            - The terminal call happens before the method returns (same reasoning as R20).
            """#)
    /// R31: The combined count of items in `didUpdate` and identifiers in `didDelete` per batch should be ≤ …
    public static let r31 = FrameworkRule(
        number: 31, source: "Doc", section: .changes,
        text: #"""
            The combined count of items in `didUpdate` and identifiers in `didDelete` per
            batch should be ≤ `suggestedBatchSize`. (Warning as in R21.)
            """#)
    /// R32: `didUpdate` is an upsert keyed by `ContactItem.Identifier`.
    public static let r32 = FrameworkRule(
        number: 32, source: "Doc", section: .changes,
        text: #"""
            `didUpdate` is an upsert keyed by `ContactItem.Identifier`. An unknown
            identifier creates a contact; a known one replaces its values.
            """#)
    /// R33: `didDelete` removes the contacts with those identifiers.
    public static let r33 = FrameworkRule(
        number: 33, source: "Doc", section: .changes,
        text: #"""
            `didDelete` removes the contacts with those identifiers. [Inferred, from FP]
            Unknown identifiers are ignored.
            """#)
    /// R34: `didFinishEnumeratingChanges(upTo: b, moreComing: m)` commits the batch and records `b` as the …
    public static let r34 = FrameworkRule(
        number: 34, source: "Doc", section: .changes,
        text: #"""
            `didFinishEnumeratingChanges(upTo: b, moreComing: m)` commits the batch and
            records `b` as the resume anchor.
            - If `m == true`, the system calls `enumerateChanges(startingAt: b, …)` again. [Inferred]
              immediately, in the same session.
            - If `m == false`, the change session ends until the next trigger (signal, scheduled sync).
            """#)
    /// R35: A later change enumeration (e.g. after `signalEnumerator`, after the extension is relaunched, or …
    public static let r35 = FrameworkRule(
        number: 35, source: "Doc", section: .changes,
        text: #"""
            A later change enumeration (e.g. after `signalEnumerator`, after the extension
            is relaunched, or after an interrupted session) starts from the **last committed** anchor.
            """#)
    /// R36: An anchor's `generationMarker` may differ from the previous anchor's (it may cross generations).
    public static let r36 = FrameworkRule(
        number: 36, source: "Doc", section: .changes,
        text: #"""
            An anchor's `generationMarker` may differ from the previous anchor's (it may
            cross generations). Pages may not do this. The simulator must not enforce marker constancy
            for anchors.
            """#)
    /// R37: Change ordering is deterministic and resumable.
    public static let r37 = FrameworkRule(
        number: 37, source: "Doc", section: .changes,
        text: #"""
            Change ordering is deterministic and resumable. Replaying
            `enumerateChanges(startingAt: a)` yields the same batch if the store has not changed since.
            """#)
    /// R38: `didFinishEnumeratingChangesWithError(ContactProviderError.changeAnchorExpired)` makes the …
    public static let r38 = FrameworkRule(
        number: 38, source: "Doc", section: .changes,
        text: #"""
            `didFinishEnumeratingChangesWithError(ContactProviderError.changeAnchorExpired)`
            makes the system discard the domain's cached data and restart a **full content enumeration**
            at `.initialPage`.
            """#)
    /// R39: Any other error passed to `didFinishEnumeratingChangesWithError`: if resumable, the system later …
    public static let r39 = FrameworkRule(
        number: 39, source: "Sample", section: .changes,
        text: #"""
            Any other error passed to `didFinishEnumeratingChangesWithError`: if
            resumable, the system later retries from the last committed anchor.
            """#)
    /// R40: Return an anchor different from the starting anchor unless there were no changes.
    public static let r40 = FrameworkRule(
        number: 40, source: "Inferred, from FileProvider header", section: .changes,
        text: #"""
            Return an anchor different from the starting
            anchor unless there were no changes. If there were no changes, `moreComing` must be `false`.
            Otherwise the simulator may loop forever. Flag "same anchor + moreComing == true" as a
            likely bug.
            """#)
    /// R41: If one page or batch takes longer than the system limit, the enumeration fails with …
    public static let r41 = FrameworkRule(
        number: 41, source: "Doc", section: .timing,
        text: #"""
            If one page or batch takes longer than the system limit, the enumeration fails
            with `.enumerationTimeout`. The limit is undocumented; make it configurable.
            - FileProvider's guidance is "a few seconds" per page or batch.
            - [Framework binary] After each save the system sleeps in proportion to the items saved
              ("didSave() - sleeping %u seconds for %ld items", `StampedeManager`, `waitDivisor`,
              `waitTimeInterval`; the numbers are not public). Simulator: off by default,
              `enable --pace-after-save ITEMS`.
            """#)
    /// R42: Capacity: when the provider exceeds an (undocumented) item limit, `.itemsLimitReached` is reported.
    public static let r42 = FrameworkRule(
        number: 42, source: "Doc", section: .timing,
        text: #"""
            Capacity: when the provider exceeds an (undocumented) item limit,
            `.itemsLimitReached` is reported. Simulator: a configurable cap, e.g. the count of committed
            items per domain.
            """#)
    /// R43: If `manager.invalidate()`, `disable()` or `reset()` (or a Settings toggle) happens while an …
    public static let r43 = FrameworkRule(
        number: 43, source: "Doc", section: .timing,
        text: #"""
            If `manager.invalidate()`, `disable()` or `reset()` (or a Settings toggle) happens
            while an enumeration is running, the run ends with `.extensionInvalidated`. Callbacks that
            arrive afterwards are ignored. [Inferred]
            """#)
    /// R44: `ContactItemPage` and `ContactItemSyncAnchor` round-trip through `JSONEncoder`/`JSONDecoder` …
    public static let r44 = FrameworkRule(
        number: 44, source: "Doc", section: .valueTypes,
        text: #"""
            `ContactItemPage` and `ContactItemSyncAnchor` round-trip through
            `JSONEncoder`/`JSONDecoder` unchanged, and `==` compares both fields.
            - Neither type is required to be Hashable, so do not add conformances Apple lacks if source
              compatibility matters.
            """#)
    /// R45: `ContactItem.Identifier("x") == ContactItem.Identifier("x")` and the two hash equally.
    public static let r45 = FrameworkRule(
        number: 45, source: "Doc", section: .valueTypes,
        text: #"""
            `ContactItem.Identifier("x") == ContactItem.Identifier("x")` and the two hash
            equally. `.rootContainer` is a static constant.
            """#)
    /// R46: `ContactProviderError` is Equatable, Hashable and Sendable, and it bridges to `NSError` via …
    public static let r46 = FrameworkRule(
        number: 46, source: "Doc", section: .valueTypes,
        text: #"""
            `ContactProviderError` is Equatable, Hashable and Sendable, and it bridges to
            `NSError` via CustomNSError with a stable per-case `errorCode`. The numeric values are
            unknown, so the simulator must invent them and mark them simulator-specific.
            """#)
    /// R47: The `async` and `throws` shapes must match exactly:
    public static let r47 = FrameworkRule(
        number: 47, source: "Doc/Mangled", section: .valueTypes,
        text: #"""
            The `async` and `throws` shapes must match exactly:
            - enumerator methods are `async`, not throwing;
            - extension `invalidate` is `async throws`;
            - `configure(for:)` and `enumerator(for:)` are synchronous and not throwing;
            - manager methods are `async throws`, and the manager `init` throws but is not async;
            - observer methods are synchronous.
            """#)

    /// Every framework rule, R1 to R47.
    public static let all: [FrameworkRule] = [
        .r1, .r2, .r3, .r4, .r5, .r6, .r7, .r8, .r9, .r10,
        .r11, .r12, .r13, .r14, .r15, .r16, .r17, .r18, .r19, .r20,
        .r21, .r22, .r23, .r24, .r25, .r26, .r27, .r28, .r29, .r30,
        .r31, .r32, .r33, .r34, .r35, .r36, .r37, .r38, .r39, .r40,
        .r41, .r42, .r43, .r44, .r45, .r46, .r47,
    ]
}
