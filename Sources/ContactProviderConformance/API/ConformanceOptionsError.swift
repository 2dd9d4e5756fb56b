import ContactProviderSystem

/// Options the kit refuses before it runs anything: a run that checked nothing would pass.
public enum ConformanceOptionsError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A rule id in ``ConformanceOptions/rules`` that names no rule (a typo would select nothing).
    case unknownRule(String)
    /// ``ConformanceOptions/contacts`` is not positive, or above the system's item limit (R42).
    case contactsOutOfRange(Int, limit: Int)

    public var description: String {
        switch self {
        case .unknownRule(let id):
            return "no conformance rule '\(id)' (known: \(ConformanceRule.all.map(\.id).joined(separator: ", ")))"
        case .contactsOutOfRange(let count, let limit):
            return "contacts: \(count): the size rules take 1 to \(limit) contacts (the system's item limit, R42)"
        }
    }
}

extension ConformanceOptions {
    /// Options that check `rules`, given as values (`[.c1, .d2]`) rather than ids.
    public init(
        seed: UInt64 = defaultSeed, operations: Int = defaultOperations, checking rules: [ConformanceRule],
        resetCallsManagerReset: Bool = false, contacts: Int? = nil
    ) {
        self.init(
            seed: seed, operations: operations, rules: Set(rules.map(\.id)),
            resetCallsManagerReset: resetCallsManagerReset, contacts: contacts)
    }

    /// The rules these options select, as values (nil: every rule).
    public var selectedRules: [ConformanceRule]? {
        rules.map { ids in ConformanceRule.all.filter { ids.contains($0.id) } }
    }

    /// Throws when the options would make a run that cannot be trusted: an unknown rule id, a size
    /// the system refuses.
    func validate() throws(ConformanceOptionsError) {
        for id in (rules ?? []).sorted() where ConformanceRule.named(id) == nil {
            throw .unknownRule(id)
        }
        let limit = DomainConfiguration().itemsLimit
        if let contacts, contacts < 1 || contacts > limit { throw .contactsOutOfRange(contacts, limit: limit) }
    }
}
