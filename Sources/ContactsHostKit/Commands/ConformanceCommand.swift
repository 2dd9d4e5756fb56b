import CommandLineToolkit
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
            extensionOption, XcodeProjectBuild.projectOption, XcodeProjectBuild.targetOption, backendOption,
            seedOption, operationsOption, rulesOption, pageTimeoutOption, jsonFlag, junitOption,
        ],
        examples: [
            "contacts-host conformance --extension .build/debug/MyProvider",
            "contacts-host conformance --xcode-project MyApp.xcodeproj --target MyProvider",
            "contacts-host conformance --extension .build/debug/MyProvider --rules C1,D3 --junit conformance.xml",
        ],
        environment: ["OSLOG_DISABLE", XcodeProjectBuild.simulatorVariable],
        exitCodes: [
            ExitCodeHelp(0, "every MUST rule passed (SHOULD failures are warnings)"),
            ExitCodeHelp(1, "a MUST rule failed, or the run could not start"),
            ExitCodeHelp(2, "usage error: nothing was run"),
        ],
        validate: { try XcodeProjectBuild.validate($0, extensionOption: extensionOption) },
        run: { arguments, context in
            let executable: String
            if let project = try arguments.value(XcodeProjectBuild.projectOption) {
                // Built where `enable` builds it, so the two commands share one build.
                let target = try XcodeProjectBuild.read(
                    project, target: try arguments.value(XcodeProjectBuild.targetOption), output: context.output)
                executable = try XcodeProjectBuild.build(
                    target, in: XcodeProjectBuild.packageDirectory(for: target, appGroup: context.appGroup),
                    output: context.output)
            } else {
                guard let path = try arguments.value(extensionOption) else {
                    throw UsageError("missing option '--extension PATH' (or '--xcode-project PATH')")
                }
                executable = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
                try ExecutableCheck.require(executable, given: path, option: "--extension")
            }
            var options = ConformanceOptions()
            if let seed = try arguments.value(seedOption) { options.seed = seed }
            if let operations = try arguments.value(operationsOption) { options.operations = operations }
            if let timeout = try arguments.value(pageTimeoutOption) { options.timeoutSeconds = timeout }
            if let rules = try arguments.value(rulesOption) { options.rules = rules }
            let backend = try arguments.value(backendOption) ?? .appDatabase
            let report = try await ConformanceKit.run(
                executable: (executable as NSString).standardizingPath, backend: backend, host: hostPath,
                options: options)
            if arguments.has(jsonFlag) {
                context.output.out(try ContactJSON.encode(report))
            } else {
                context.output.out(report.text)
            }
            if let file = try arguments.value(junitOption) {
                do {
                    try Data(report.junitXML.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
                } catch {
                    throw CommandFailure(
                        "--junit \(file): cannot write the JUnit report (\(error.localizedDescription)); the conformance run itself finished"
                    )
                }
            }
            return report.passed ? ExitCode.success : ExitCode.failure
        })

    static let extensionOption = Option<String>(
        "--extension", value: "PATH", help: "The provider executable to check (or --xcode-project).")
    static let backendOption = Option<ConformanceBackendKind>(
        "--backend", value: "KIND[:ARG]",
        help: "The store the kit edits: app-database (default), seed-json[:FILE], exec:COMMAND (an adapter program).",
        convert: { text, _ in
            do { return try ConformanceBackendKind.parse(text) } catch { throw UsageError("\(error)") }
        })
    static let seedOption = Option<UInt64>(
        "--seed", value: "N", help: "Seed of the random data and operations (default 42).",
        convert: ArgumentValue.nonNegativeInteger)
    static let operationsOption = Option<Int>(
        "--operations", value: "N", help: "Random operations for the convergence rule V1 (default 200).",
        convert: ArgumentValue.positiveInt)
    static let rulesOption = Option<Set<String>>(
        "--rules", value: "LIST", help: "Only these rules, comma-separated (e.g. C1,D3,V1).",
        convert: { text, _ in
            let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            for name in names where ConformanceRule.named(name) == nil {
                throw UsageError(
                    "unknown rule '\(name)' in --rules (known: \(ConformanceRule.all.map(\.id).joined(separator: ",")))"
                )
            }
            return Set(names.map { $0.uppercased() })
        })
    static let pageTimeoutOption = Option<Double>(
        "--page-timeout", value: "SECONDS", help: "Seconds one page or batch may take (default 10).",
        convert: ArgumentValue.seconds)
    static let jsonFlag = Flag("--json", help: "Print the report as one JSON object.")
    static let junitOption = Option<String>(
        "--junit", value: "FILE", help: "Also write the report as JUnit XML (one testcase per rule) for CI.")

    /// This executable's absolute path, so a `reproduce:` line runs when pasted into any shell.
    static var hostPath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "contacts-host"
    }
}
