import AppGroupStore
import Foundation

/// A page or anchor position as the system stores it: a generation marker and an offset.
public struct SyncPosition: Codable, Equatable, Hashable, Sendable, CustomStringConvertible {
    public var generationMarker: Data
    public var offset: Int

    public init(generationMarker: Data, offset: Int) {
        self.generationMarker = generationMarker
        self.offset = offset
    }

    /// `ContactItemPage.initialPage`: an empty marker and offset 0.
    public static let initial = SyncPosition(generationMarker: Data(), offset: 0)

    public var description: String {
        let marker =
            String(data: generationMarker, encoding: .utf8).map { "\"\($0)\"" }
            ?? generationMarker.base64EncodedString()
        return "(\(generationMarker.isEmpty ? "initial" : marker), \(offset))"
    }
}

/// The system's sync state for a domain, committed atomically with each page or batch.
///
/// It travels in the `meta` field of the system store's journal entry, so a page's contacts and
/// the position to resume from become durable in one write (R24, R34): a crash can never leave
/// contacts committed without their anchor, or an anchor without its contacts.
public struct SyncState: Codable, Equatable, Sendable {
    /// What the next sync runs.
    public enum Phase: String, Codable, Sendable {
        /// Content enumeration from `nextPage` (nil: `.initialPage`).
        case content
        /// Change enumeration from `anchor`.
        case changes
    }

    public var phase: Phase
    /// Content: the last committed `didFinishEnumeratingPage(upTo:)`, where to resume (R22).
    public var nextPage: SyncPosition?
    /// Changes: the last committed anchor (R34, R35).
    public var anchor: SyncPosition?

    public init(phase: Phase, nextPage: SyncPosition? = nil, anchor: SyncPosition? = nil) {
        self.phase = phase
        self.nextPage = nextPage
        self.anchor = anchor
    }

    /// No content enumeration has completed: start at `.initialPage` (R18).
    public static let initial = SyncState(phase: .content)
}

/// The system store: the contacts the system received, with the sync state beside them.
package typealias SystemStore = JournaledStore<SyncState>
