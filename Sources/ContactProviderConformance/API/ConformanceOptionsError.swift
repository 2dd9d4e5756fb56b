import ContactProviderSystem

/// Options the kit refuses before it runs anything: a run that checked nothing would pass.
public enum ConformanceOptionsError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A rule id given to ``ConformanceRule/rules(named:)`` that names no rule (a typo would select nothing).
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
    /// Throws when the options would make a run that cannot be trusted: a size the system refuses.
    /// (An unknown rule cannot be selected: ``rules`` holds values, and ids become values in
    /// ``ConformanceRule/rules(named:)``, which refuses an unknown one.)
    func validate() throws(ConformanceOptionsError) {
        let limit = DomainConfiguration().itemsLimit
        if let contacts, contacts < 1 || contacts > limit { throw .contactsOutOfRange(contacts, limit: limit) }
    }
}
