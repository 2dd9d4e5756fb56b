import ContactProviderConformance
import Foundation
import TestSupport
import Testing

/// Runs `contacts-host conformance` and reads its `--json` report.
enum ConformanceHarness {
    /// One rule's outcome from a `--json` report.
    struct Outcome {
        var status: String
        var explanation: String
        var reproduce: String
    }

    /// The source tree's root (where `Examples/` is).
    static var packageRoot: String {
        PythonTestTools.repositoryRoot
    }

    /// The Python adapter's command line.
    static var pythonAdapter: String { "python3 \(packageRoot)/Examples/vdir-adapter-python/vdir_adapter.py" }

    /// Runs the CLI with `arguments` (after `conformance --extension PATH`), in a fresh App Group,
    /// with `environment` added to the child's environment.
    static func run(
        _ provider: String, _ arguments: [String], environment extra: [String: String] = [:]
    ) throws -> ProcessResult {
        return try withTemporaryAppGroup { group in
            var environment = group.environment
            environment.merge(extra) { _, new in new }
            return try HostRunner.process.run(
                ["conformance", "--extension", BuiltProducts.path(provider)] + arguments, environment: environment)
        }
    }

    /// The outcome of each rule, by id, from a `--json` run.
    static func outcomes(_ result: ProcessResult) throws -> [String: Outcome] {
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        let results = try #require(object["results"] as? [[String: Any]])
        var outcomes: [String: Outcome] = [:]
        for entry in results {
            let id = try #require((entry["rule"] as? [String: Any])?["id"] as? String)
            outcomes[id] = Outcome(
                status: entry["status"] as? String ?? "", explanation: entry["explanation"] as? String ?? "",
                reproduce: entry["reproduce"] as? String ?? "")
        }
        return outcomes
    }

    /// The ids of rules with `status`, sorted.
    /// Every rule's id but the size rules', sorted: what a run without `--contacts` checks.
    static var everyRuleButSize: [String] {
        ConformanceRule.all.filter { !ConformanceRule.sizeRules.contains($0) }.map(\.id).sorted()
    }

    static func rules(_ outcomes: [String: Outcome], _ status: String) -> [String] {
        outcomes.filter { $0.value.status == status }.keys.sorted()
    }
}
