/// The system's retry of a page or a sync anchor whose save failed (issue 40).
///
/// Apple's framework binary (ContactProvider.framework 25.0 and later; blacktop/ipsw-diffs) carries
/// `maxPageRetries`, `pageRetryCount`, "ItemContentSession.enumerate() will retry enumerating the page",
/// "ItemContentSession.enumerate() did fail to save", and for changes `maxSyncAnchorRetries`,
/// `syncAnchorRetryCount`, "ItemChangeSession.sync() will retry enumerating the sync anchor" and
/// "ItemChangeSession.sync() did fail to save". Its decompiled logic asks for the page again while its
/// retry count is below one, and then ends the session with the error case of tag 2, `cannotEnumerate`
/// (extensionNotFound 0, itemsLimitReached 1, cannotEnumerate 2 in declaration order). The simulator
/// does the same: one retry, then `cannotEnumerate`. The numbers are not public; one is what the
/// decompiled code shows.
package enum SaveRetry {
    /// `maxPageRetries`: how many times a page whose save failed is asked for again.
    package static let maxPageRetries = 1
    /// `maxSyncAnchorRetries`: the same for a change batch (its sync anchor).
    package static let maxSyncAnchorRetries = 1

    /// The transcript line before a retry, Apple's log line with the reason.
    static func retryLine(content: Bool, reason: String) -> String {
        content
            ? "system: ItemContentSession.enumerate() will retry enumerating the page (the save failed: \(reason))"
            : "system: ItemChangeSession.sync() will retry enumerating the sync anchor (the save failed: \(reason))"
    }

    /// The sync's failure once the retries are spent.
    static func failure(content: Bool, retries: Int, reason: String) -> SyncFailure {
        let session = content ? "ItemContentSession.enumerate()" : "ItemChangeSession.sync()"
        let what = content ? "page" : "batch"
        return .provider(
            .cannotEnumerate,
            message:
                "\(session) did fail to save: the system could not save the \(what) after \(retries) retry (\(reason)); nothing of it was committed, and the next signal asks for it again"
        )
    }
}

/// The system store could not save a page or batch (a write error, not a rule or a limit).
struct SaveFailure: Error {
    let reason: String
}
