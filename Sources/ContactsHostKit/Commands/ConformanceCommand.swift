import ContactProviderConformance
import Foundation

/// `contacts-host conformance`: run the kit's rules against a provider executable.
enum ConformanceCommand {
    static let command = Command(
        ["conformance"], summary: "Check a provider executable against the numbered conformance rules.",
        discussion: """
            Runs in a temporary App Group over the real pipes and processes; your data is not touched.
            Exit 0 when every MUST rule passes (SHOULD failures are warnings), 1 otherwise.
            An exec: adapter is started with --app-group PATH and CONTACT_PROVIDER_APP_GROUP set to the run's
            App Group, and speaks the README's adapter protocol (one JSON object per line, "protocol": 1).
            Rules: \(ConformanceRule.all.map(\.id).joined(separator: ", ")) (see the README's rule table).
            """,
        options: [
            OptionSpec("--extension", value: "PATH", required: true, help: "The provider executable to check."),
            OptionSpec(
                "--backend", value: "KIND[:ARG]",
                help: "The store the kit edits: app-database (default), seed-json[:FILE], exec:COMMAND (an adapter program)."),
            OptionSpec("--seed", value: "N", help: "Seed of the random data and operations (default 42)."),
            OptionSpec("--operations", value: "N", help: "Random operations for the convergence rule V1 (default 200)."),
            OptionSpec("--rules", value: "LIST", help: "Only these rules, comma-separated (e.g. C1,D3,V1)."),
            OptionSpec("--page-timeout", value: "SECONDS", help: "Seconds one page or batch may take (default 10)."),
            OptionSpec("--json", help: "Print the report as one JSON object."),
            OptionSpec("--junit", value: "FILE", help: "Also write the report as JUnit XML (one testcase per rule) for CI."),
        ],
        examples: ["contacts-host conformance --extension .build/debug/MyProvider", "contacts-host conformance --extension .build/debug/MyProvider --rules C1,D3 --junit conformance.xml"],
        environment: ["OSLOG_DISABLE"],
        exitCodes: [ExitCodeHelp(0, "every MUST rule passed (SHOULD failures are warnings)"), ExitCodeHelp(1, "a MUST rule failed, or the run could not start"), ExitCodeHelp(2, "usage error: nothing was run")],
        validate: { arguments in
            guard arguments.has("--extension") else { throw UsageError("missing option '--extension PATH'") }
            if let backend = arguments.value("--backend") {
                do { _ = try ConformanceBackendKind.parse(backend) } catch { throw UsageError("\(error)") }
            }
            if let seed = arguments.value("--seed"), UInt64(seed) == nil {
                throw UsageError("option '--seed' expects a non-negative integer, got '\(seed)'")
            }
            if let value = arguments.value("--operations") { _ = try ArgumentValue.positiveInt(value, option: "--operations") }
            if let value = arguments.value("--page-timeout"), (Double(value) ?? 0) <= 0 || !(Double(value) ?? 0).isFinite {
                throw UsageError("option '--page-timeout' expects a positive number of seconds, got '\(value)'")
            }
            if let rules = arguments.value("--rules") {
                for rule in rules.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    guard ConformanceRule.named(rule) != nil else {
                        throw UsageError("unknown rule '\(rule)' in --rules (known: \(ConformanceRule.all.map(\.id).joined(separator: ",")))")
                    }
                }
            }
        },
        run: { arguments, context in
            let path = arguments.value("--extension")!
            let executable = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            guard access(executable, X_OK) == 0 else { throw CommandFailure("--extension \(path): not an executable file") }
            var options = ConformanceOptions()
            if let seed = arguments.value("--seed") { options.seed = UInt64(seed)! }
            if let operations = arguments.value("--operations") { options.operations = Int(operations)! }
            if let timeout = arguments.value("--page-timeout") { options.timeoutSeconds = Double(timeout)! }
            if let rules = arguments.value("--rules") {
                options.rules = Set(rules.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() })
            }
            let backend = try arguments.value("--backend").map(ConformanceBackendKind.parse) ?? .appDatabase
            let report = try await ConformanceKit.run(
                executable: (executable as NSString).standardizingPath, backend: backend, host: hostPath, options: options)
            if arguments.has("--json") {
                context.output.out(try ContactJSON.encode(report))
            } else {
                context.output.out(report.text)
            }
            if let file = arguments.value("--junit") {
                do {
                    try Data(report.junitXML.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
                } catch {
                    throw CommandFailure("--junit \(file): cannot write the JUnit report (\(error.localizedDescription)); the conformance run itself finished")
                }
            }
            return report.passed ? HostTool.ExitCode.success : HostTool.ExitCode.failure
        })

    /// This executable's absolute path, so a `reproduce:` line runs when pasted into any shell.
    static var hostPath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "contacts-host"
    }
}
