import CommandLineToolkit
import ContactProviderConformance
import ContactProviderSystem
import ContactsHostKit
import Foundation

/// `contacts-host conformance`: run the kit's rules against a provider executable.
enum ConformanceCommand {
    static let command = Command(
        ForwardedCommands.conformance.name, summary: ForwardedCommands.conformance.summary,
        discussion: """
            Runs in a temporary App Group over the real pipes and processes; your data is not touched (the
            App Group of --app-group is used only to keep an --xcode-project build between runs).
            Exit 0 when every MUST rule passes (SHOULD failures are warnings), 1 otherwise.
            Backends (--backend): \(ConformanceBackendKind.known.joined(separator: ", ")).
            An exec: adapter is started with --app-group PATH and CONTACT_PROVIDER_APP_GROUP set to the run's
            App Group, and speaks the adapter protocol of docs/conformance-kit.md (one JSON object per line,
            "protocol": 1).
            Rules: \(ConformanceRule.all.map(\.id).joined(separator: ", ")) (--list-rules, or docs/conformance-kit.md).
            """,
        options: [
            extensionOption, XcodeProjectBuild.projectOption, XcodeProjectBuild.targetOption, backendOption,
            seedOption, operationsOption, rulesOption, contactsOption, pageTimeoutOption, jsonFlag, junitOption,
            htmlOption, resetCallsManagerResetFlag, listRulesFlag,
        ],
        examples: [
            "contacts-host conformance --extension .build/debug/MyProvider",
            "contacts-host conformance --xcode-project MyApp.xcodeproj --target MyProvider",
            "contacts-host conformance --extension .build/debug/MyProvider --rules C1,D3 --junit conformance.xml",
            "contacts-host conformance --extension .build/debug/MyProvider --html conformance.html",
            "contacts-host conformance --extension .build/debug/MyProvider --backend seed-json",
            "contacts-host conformance --extension .build/debug/MyProvider --rules S1,S2 --contacts 100000",
            "contacts-host conformance --list-rules",
        ],
        environment: ["OSLOG_DISABLE", "CONTACTS_HOST_PROGRESS", XcodeProjectBuild.simulatorVariable],
        exitCodes: [
            ExitCodeHelp(0, "every MUST rule passed (SHOULD failures are warnings)"),
            ExitCodeHelp(1, "a MUST rule failed, or the run could not start"),
            ExitCodeHelp(2, "usage error: nothing was run"),
        ],
        validate: { arguments in
            if arguments.has(listRulesFlag) { return }
            try XcodeProjectBuild.validate(arguments, extensionOption: extensionOption)
            if try arguments.value(contactsOption) == nil,
                let asked = try arguments.value(rulesOption)?.intersection(ConformanceRule.sizeRules), !asked.isEmpty
            {
                throw UsageError(
                    "--rules \(asked.map(\.id).sorted().joined(separator: ",")): the size rules need the app's size, --contacts N"
                )
            }
        },
        run: { arguments, context in
            if arguments.has(listRulesFlag) {
                context.output.out(arguments.has(jsonFlag) ? try ContactJSON.report(ConformanceRule.all) : ruleList)
                return ExitCode.success
            }
            let executable: String
            var name: [String]?
            if let built = try XcodeProjectBuild.buildRequested(arguments, context: context) {
                executable = built.executable
                // The report and its reproduce lines name the project: a pasted line rebuilds it.
                name = ["--xcode-project", built.target.project.bundlePath, "--target", built.target.target.name]
            } else {
                guard let path = try arguments.value(extensionOption) else {
                    throw UsageError("missing option '--extension PATH' (or '--xcode-project PATH')")
                }
                executable = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
                try ExecutableCheck.require(executable, given: path, option: "--extension")
                try XcodeProjectBuild.rebuildIfChanged(executable: executable, output: context.output)
            }
            var options = ConformanceOptions()
            if let seed = try arguments.value(seedOption) { options.seed = seed }
            if let operations = try arguments.value(operationsOption) { options.operations = operations }
            if let timeout = try arguments.value(pageTimeoutOption) { options.timeoutSeconds = timeout }
            if let rules = try arguments.value(rulesOption) { options.rules = rules }
            options.contacts = try arguments.value(contactsOption)
            options.resetCallsManagerReset = arguments.has(resetCallsManagerResetFlag)
            let backend = absolutized(try arguments.value(backendOption) ?? .appDatabase)
            let ticker = ProgressTicker(output: context.output, prefix: "conformance", phase: "starting")
            options.onProgress = { ticker.set($0) }
            let standardized = (executable as NSString).standardizingPath
            let report = try await ConformanceKit.run(
                executable: standardized, namedBy: name ?? ["--extension", standardized], backend: backend,
                host: hostPath, options: options)
            ticker.stop()
            if arguments.has(jsonFlag) {
                context.output.out(try ContactJSON.report(report))
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
            if let file = try arguments.value(htmlOption) {
                let page = ConformanceHTMLReport(report: report).html(generatedAt: Date())
                do {
                    try Data(page.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
                } catch {
                    throw CommandFailure(
                        "--html \(file): cannot write the HTML report (\(error.localizedDescription)); the conformance run itself finished"
                    )
                }
            }
            return report.passed ? ExitCode.success : ExitCode.failure
        })

    static let extensionOption = Option<String>(
        "--extension", value: "PATH",
        help: "The provider executable to check (or --xcode-project; neither with --list-rules).")
    static let backendOption = Option<ConformanceBackendKind>(
        "--backend", value: "KIND[:ARG]",
        help: "The store the kit edits: "
            + ConformanceBackendKind.forms.map { "\($0.spelling) (\($0.meaning))" }.joined(separator: ", ")
            + "; default \(ConformanceBackendKind.appDatabase).",
        convert: { text, _ in
            do { return try ConformanceBackendKind.parse(text) } catch { throw UsageError("\(error)") }
        })
    static let seedOption = Option<UInt64>(
        "--seed", value: "N",
        help: "Seed of the random data and operations (default \(ConformanceOptions.defaultSeed)).",
        convert: ArgumentValue.nonNegativeInteger)
    static let operationsOption = Option<Int>(
        "--operations", value: "N",
        help: "Random operations for the convergence rule V1 (default \(ConformanceOptions.defaultOperations)).",
        convert: ArgumentValue.positiveInt)
    static let rulesOption = Option<Set<ConformanceRule>>(
        "--rules", value: "LIST", help: "Only these rules, comma-separated (e.g. C1,D3,V1).",
        convert: { text, _ in
            let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            do throws(ConformanceOptionsError) {
                return try ConformanceRule.rules(named: names)
            } catch {
                guard case .unknownRule(let name) = error else { throw UsageError("\(error)") }
                throw UsageError(
                    "unknown rule '\(name)' in --rules (known: \(ConformanceRule.all.map(\.id).joined(separator: ",")))"
                )
            }
        })
    static let contactsOption = Option<Int>(
        "--contacts", value: "N",
        help:
            "Also check the size rules S1 and S2 with N contacts, your app's size (at most 1000000): a full sync and a change sync at the system's page and batch sizes, each call timed against the page limit.",
        convert: { text, name in
            let count = try ArgumentValue.positiveInt(text, option: name)
            let limit = DomainConfiguration().itemsLimit
            guard count <= limit else {
                throw UsageError(
                    "option '\(name)' expects at most \(limit) (the system's item limit, R42), got '\(text)'")
            }
            return count
        })
    static let pageTimeoutOption = Option<Double>(
        "--page-timeout", value: "SECONDS",
        help:
            "Seconds one page or batch may take (default \(SecondsText.format(ConformanceOptions.defaultTimeoutSeconds))).",
        convert: ArgumentValue.seconds)
    static let jsonFlag = JSONOutput.report(
        "{\"durationSeconds\", \"operations\", \"outlivingProcesses\"?: [{\"command\", \"endedBy\", \"pid\"}],"
            + " \"provider\", \"results\": [{\"explanation\"?, \"reproduce\"?, \"rule\","
            + " \"status\": \"pass\"|\"fail\"|\"warn\"|\"skipped\", \"step\"?, \"transcript\"?}], \"seed\", \"startFailure\"?};"
            + " with --list-rules an array of rules, [{\"id\", \"level\", \"references\", \"title\"}]")
    static let resetCallsManagerResetFlag = Flag(
        "--reset-calls-manager-reset",
        help:
            "Your app calls ContactProviderManager.reset() when it resets its store: the kit does too when it resets the data (E1, V1)."
    )
    static let listRulesFlag = Flag(
        "--list-rules", help: "Print every rule (id, level, title, framework rules) and exit; needs no --extension.")

    /// One line per rule, as `--list-rules` prints it.
    static var ruleList: String {
        ConformanceRule.all.map { rule in
            rule.id.padding(toLength: 5, withPad: " ", startingAt: 0)
                + rule.level.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0) + rule.title + " ("
                + rule.references.map(\.id).joined(separator: ", ") + ")"
        }.joined(separator: "\n")
    }
    static let junitOption = Option<String>(
        "--junit", value: "FILE", help: "Also write the report as JUnit XML (one testcase per rule) for CI.")
    static let htmlOption = Option<String>(
        "--html", value: "FILE",
        help:
            "Also write the report as one self-contained HTML page: the verdict, failures by root cause, each reproduction as a sequence diagram."
    )

    /// `kind` with an exec adapter given by a relative path (`exec:./adapter.py`, `exec:python3
    /// tools/adapter.py`) made absolute, so the run and its `reproduce:` lines work from any directory.
    static func absolutized(_ kind: ConformanceBackendKind) -> ConformanceBackendKind {
        guard case .exec(let command) = kind else { return kind }
        let directory = FileManager.default.currentDirectoryPath
        let words = command.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            let text = String(word)
            guard text.contains("/"), !text.hasPrefix("/"), !text.hasPrefix("-"),
                FileManager.default.fileExists(atPath: directory + "/" + text)
            else { return text }
            return ((directory + "/" + text) as NSString).standardizingPath
        }
        return .exec(command: words.joined(separator: " "))
    }

    /// `contacts-host`'s absolute path (beside this executable), so a `reproduce:` line runs when
    /// pasted into any shell.
    static var hostPath: String {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return "contacts-host"
        }
        let host = (executable as NSString).deletingLastPathComponent + "/contacts-host"
        return FileManager.default.isExecutableFile(atPath: host) ? host : executable
    }
}
