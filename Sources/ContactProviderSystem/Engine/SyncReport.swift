import Foundation

/// What one sync did: the answer to `signal --wait`.
public struct SyncReport: Codable, Equatable, Sendable {
    /// `content` or `changes`: the kind of enumeration the sync started with.
    public var enumeration: String
    /// Content pages committed.
    public var pages: Int = 0
    /// Change batches committed.
    public var batches: Int = 0
    /// Contacts upserted (didEnumerate + didUpdate).
    public var updated: Int = 0
    /// Identifiers deleted (didDelete).
    public var deleted: Int = 0
    /// Contacts in the system store afterwards.
    public var systemCount: Int = 0
    /// The committed anchor afterwards (nil while content enumeration is unfinished).
    public var anchor: SyncPosition?
    /// The committed next page afterwards (content enumeration in progress).
    public var nextPage: SyncPosition?
    /// Wall time of the sync.
    public var durationMs: Double = 0
    /// True when a `pageExpired` / `changeAnchorExpired` restarted content enumeration (R27, R38).
    public var restarted: Bool = false
    /// The failure, if the sync did not complete.
    public var error: ReportedError?
    /// SHOULD-level findings (e.g. a page above `suggestedPageSize`, R21).
    public var warnings: [String] = []
    /// How long each page's or batch's call took, in milliseconds and in call order, measured
    /// where the provider runs and without time stopped in a debugger (what R41's limit counts).
    ///
    /// Present in a traced sync's report (`signal --wait --trace`); the conformance kit's size
    /// rules read it.
    public var callMilliseconds: [Double]?

    public init(enumeration: String) {
        self.enumeration = enumeration
    }

    /// The report's fields as JSON names them, one case per stored property: the one declaration
    /// of the fields (issue 46). Foundation's coding (`last-sync.json`) uses it, and so do the two
    /// coders written by hand, the provider's reply (`ReplyCoding`) and the host's `signal --json`
    /// (`ReportJSON`), each with an exhaustive `switch`: a new field does not compile until each
    /// says how it writes and reads it. That every stored property has its case the compiler does
    /// not check (Foundation would leave one without a case out): `SyncReportFieldsTests` does.
    package enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case enumeration, pages, batches, updated, deleted, systemCount, anchor, nextPage, durationMs, restarted
        case error, warnings, callMilliseconds
    }

    /// A failure in transmissible form.
    public struct ReportedError: Codable, Equatable, Sendable {
        /// `ContactProviderError` case name, or nil.
        public var code: String?
        /// Rule id (e.g. `R23`) for a rule violation, or nil.
        public var rule: String?
        /// A one-line explanation.
        public var message: String

        package init(_ failure: SyncFailure) {
            switch failure {
            case .provider(let code, _): self.code = code.rawValue
            case .ruleViolation(let rule, _): self.rule = rule.id
            default: break
            }
            message = failure.description
        }

        public init(code: String?, rule: String?, message: String) {
            self.code = code
            self.rule = rule
            self.message = message
        }
    }
}
