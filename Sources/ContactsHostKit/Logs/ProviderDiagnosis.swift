import Foundation

/// What the provider itself said about why it could not reach its data, found in its log for
/// `signal --trace`: a provider without the App Group's entitlement syncs 0 items and exits 0, and
/// the only exact diagnosis is its own line in `provider.log` (the runtime's
/// `containerURL(forSecurityApplicationGroupIdentifier: "…") is nil: … lists […]`).
enum ProviderDiagnosis {
    /// The text the runtime's container diagnosis starts with.
    static let containerMarker = "containerURL(forSecurityApplicationGroupIdentifier:"

    /// The diagnosis lines the process `pid` wrote to the log at `path` (since its `Name[pid] serving`
    /// line: an earlier process's lines are not this sync's), each once.
    static func lines(inLog path: String, pid: Int32?) -> [String] {
        guard let pid, let data = FileManager.default.contents(atPath: path) else { return [] }
        let log = String(decoding: data, as: UTF8.self).split(separator: "\n")
        let start = log.lastIndex(where: { $0.contains("[\(pid)] serving domain") }) ?? log.startIndex
        var seen = Set<Substring>()
        return log[start...].filter { $0.hasPrefix(containerMarker) && seen.insert($0).inserted }.map(String.init)
    }
}
