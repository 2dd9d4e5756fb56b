import Foundation

/// One line of a domain's sync history (`domains/<domain>/sync-history.jsonl`, docs/file-formats.md):
/// a finished sync with each page or batch it committed, or a marker for a reset or a disable.
///
/// `contacts-host report --html` draws the timeline from these lines (issue 45). Idle syncs (nothing
/// committed, no error) are not recorded, as `last-sync.json` skips them: the history is what changed.
public struct SyncHistoryEntry: Codable, Equatable, Sendable {
    /// What the line records.
    public enum Kind: String, Codable, Sendable {
        /// A sync that committed something or failed.
        case sync
        /// `ContactProviderManager.reset()` (`system reset`, R9): the system store was emptied.
        case reset
        /// `disable` (R8): the domain was disabled and the system store emptied.
        case disable
    }

    /// One page (content) or batch (changes) of a sync, in call order.
    public struct Step: Codable, Equatable, Sendable {
        /// `page` or `batch`.
        public var kind: String
        /// Contacts the step delivered (didEnumerate / didUpdate).
        public var updated: Int
        /// Identifiers the step deleted (didDelete).
        public var deleted: Int
        /// The position it committed: the next page, or the anchor (`(marker, offset)`); nil when the
        /// step committed nothing (an expiry, or a batch that changed nothing).
        public var position: String?
        /// How long the enumerator call took (what R41's limit counts), in milliseconds.
        public var milliseconds: Double
        /// `pageExpired` or `changeAnchorExpired` when the step ended with it (R27, R38).
        public var expired: String?

        /// A step.
        public init(
            kind: String, updated: Int, deleted: Int, position: String?, milliseconds: Double, expired: String? = nil
        ) {
            self.kind = kind
            self.updated = updated
            self.deleted = deleted
            self.position = position
            self.milliseconds = milliseconds
            self.expired = expired
        }
    }

    /// What the line records.
    public var kind: Kind
    /// When the sync started (or the marker was written), in seconds since 1970.
    public var time: Double
    /// `content` or `changes`: the enumeration the sync started with (syncs only).
    public var enumeration: String?
    /// The pages or batches, at most ``maxSteps``; the rest are counted in ``omittedSteps``.
    public var steps: [Step] = []
    /// Steps beyond ``maxSteps`` (their items are still in ``updated`` and ``deleted``).
    public var omittedSteps: Int?
    /// Contacts delivered by the whole sync.
    public var updated: Int?
    /// Identifiers deleted by the whole sync.
    public var deleted: Int?
    /// Wall time of the sync, in milliseconds.
    public var durationMs: Double?
    /// The time limit of one enumerator call when the sync ran (`pageTimeoutSeconds`, R41), in milliseconds.
    public var callLimitMs: Double?
    /// Contacts in the system store afterwards.
    public var systemCount: Int?
    /// True when an expiry restarted content enumeration (R27, R38): a full resync.
    public var restarted: Bool?
    /// The committed anchor afterwards, or the next page while content enumeration is unfinished.
    public var position: String?
    /// The failure, if the sync did not complete.
    public var error: SyncReport.ReportedError?

    private enum CodingKeys: String, CodingKey {
        case kind, time, enumeration, steps, omittedSteps, updated, deleted, durationMs, callLimitMs, systemCount
        case restarted, position, error
    }

    /// Decodes a line; `steps` may be absent (a marker line written by hand or by a later version).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decode(Kind.self, forKey: .kind)
        time = try c.decode(Double.self, forKey: .time)
        enumeration = try c.decodeIfPresent(String.self, forKey: .enumeration)
        steps = try c.decodeIfPresent([Step].self, forKey: .steps) ?? []
        omittedSteps = try c.decodeIfPresent(Int.self, forKey: .omittedSteps)
        updated = try c.decodeIfPresent(Int.self, forKey: .updated)
        deleted = try c.decodeIfPresent(Int.self, forKey: .deleted)
        durationMs = try c.decodeIfPresent(Double.self, forKey: .durationMs)
        callLimitMs = try c.decodeIfPresent(Double.self, forKey: .callLimitMs)
        systemCount = try c.decodeIfPresent(Int.self, forKey: .systemCount)
        restarted = try c.decodeIfPresent(Bool.self, forKey: .restarted)
        position = try c.decodeIfPresent(String.self, forKey: .position)
        error = try c.decodeIfPresent(SyncReport.ReportedError.self, forKey: .error)
    }

    /// A line is bounded however large the sync: 100,000 contacts in pages of 10 are 10,000 steps.
    public static let maxSteps = 200

    /// An entry of `kind` at `time`.
    public init(kind: Kind, time: Double) {
        self.kind = kind
        self.time = time
    }

    /// Appends `step`, counting it in ``omittedSteps`` past ``maxSteps``.
    public mutating func add(_ step: Step) {
        if steps.count < Self.maxSteps {
            steps.append(step)
        } else {
            omittedSteps = (omittedSteps ?? 0) + 1
        }
    }

    /// The entry for a finished sync: its report and its steps.
    package init(report: SyncReport, startedAt time: Double, steps: [Step], omittedSteps: Int, callLimitSeconds: Double)
    {
        self.init(kind: .sync, time: time)
        enumeration = report.enumeration
        self.steps = steps
        self.omittedSteps = omittedSteps > 0 ? omittedSteps : nil
        updated = report.updated
        deleted = report.deleted
        durationMs = report.durationMs
        callLimitMs = callLimitSeconds * 1000
        systemCount = report.systemCount
        restarted = report.restarted ? true : nil
        position = (report.anchor ?? report.nextPage).map { "\($0)" }
        error = report.error
    }
}
