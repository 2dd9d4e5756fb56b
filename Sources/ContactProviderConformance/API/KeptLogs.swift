import Foundation

/// Logs a report points to outlive the run's temporary App Group.
enum KeptLogs {
    /// Copies the `.log` files of `groupPath` that `report` mentions into a directory that is not
    /// removed, and rewrites the report's paths to the copies.
    static func keep(_ report: ConformanceReport, groupPath: String) -> ConformanceReport {
        let texts =
            report.results.flatMap { [$0.explanation, $0.step].compactMap { $0 } + ($0.transcript ?? []) }
            + [report.startFailure].compactMap { $0 }
        guard texts.contains(where: { $0.contains(groupPath) }) else { return report }
        let kept = (NSTemporaryDirectory() as NSString).appendingPathComponent(
            "cps-conformance-logs-" + UUID().uuidString)
        let manager = FileManager.default
        guard let files = manager.enumerator(atPath: groupPath) else { return report }
        for case let relative as String in files where relative.hasSuffix(".log") {
            let destination = kept + "/" + relative
            // Private, like the App Group they come from (logs name contacts).
            try? manager.createDirectory(
                atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            try? manager.copyItem(atPath: groupPath + "/" + relative, toPath: destination)
        }
        var copy = report
        copy.startFailure = report.startFailure?.replacingOccurrences(of: groupPath, with: kept)
        copy.results = report.results.map { result in
            var result = result
            result.explanation = result.explanation?.replacingOccurrences(of: groupPath, with: kept)
            result.step = result.step?.replacingOccurrences(of: groupPath, with: kept)
            result.transcript = result.transcript?.map { $0.replacingOccurrences(of: groupPath, with: kept) }
            return result
        }
        return copy
    }
}
