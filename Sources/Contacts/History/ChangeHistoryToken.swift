import Foundation

/// What a change history token (`CNFetchResult.currentHistoryToken`) holds: for each store of the
/// device's contacts, the point its history had reached — the store's generation and the seq of
/// its newest change. Opaque to apps (Apple's tokens are too); JSON inside.
///
/// A store is named `device` (the user's own contacts) or `domain:<name>` (a provider domain's
/// system store). A store missing from a token did not exist then, so all its contacts are new; a
/// store in the token that no longer exists, or whose history since the point is gone (a reset, a
/// compaction past the point), makes the fetch drop everything.
struct ChangeHistoryToken: Codable, Equatable, Sendable {
    /// One store's point in history.
    struct Point: Codable, Equatable, Sendable {
        /// The store's generation (it changes on a reset and a compaction).
        var generation: String
        /// The seq of the store's newest change at the point.
        var seq: Int
    }

    /// The token format this simulator writes.
    static let currentFormat = 1
    /// The format (for tokens an older simulator saved).
    var format = Self.currentFormat
    /// Each store's point, by store name.
    var stores: [String: Point]

    /// The store name of the device's own contacts.
    static let deviceStore = "device"

    /// The store name of the provider domain `domain`.
    static func domainStore(_ domain: String) -> String { "domain:" + domain }

    /// The token's bytes (JSON with sorted keys, so equal tokens are equal bytes).
    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings and integers cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The token in `data`.
    ///
    /// - Throws: `CNError.changeHistoryInvalidAnchor` when `data` is not a token this simulator
    ///   issued (or one of a newer format).
    static func decode(_ data: Data) throws -> ChangeHistoryToken {
        let token: ChangeHistoryToken
        do {
            token = try JSONDecoder().decode(ChangeHistoryToken.self, from: data)
        } catch {
            throw invalid("it is not a token the simulated device issued (\(data.count) bytes that are not its JSON)")
        }
        guard token.format <= currentFormat else {
            throw invalid("its format \(token.format) is newer than this simulator's (\(currentFormat))")
        }
        return token
    }

    private static func invalid(_ why: String) -> CNError {
        CNError(
            .changeHistoryInvalidAnchor,
            userInfo: [
                NSLocalizedDescriptionKey: "The change history token is invalid: \(why).",
                NSLocalizedRecoverySuggestionErrorKey:
                    "Give a CNFetchResult.currentHistoryToken a fetch returned, or nil to fetch everything again.",
            ])
    }
}
