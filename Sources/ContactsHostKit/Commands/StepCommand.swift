import AppGroupStore
import CommandLineToolkit
import ContactProviderSystem
import Foundation

/// `contacts-host step`: FileProvider-style testing mode: see the next system operation and run it alone.
enum StepCommand {
    static let command = Command(
        ["step"], summary: "Step mode: show the pending system operation and run exactly one page or batch.",
        discussion: """
            Prints the pending operation (e.g. 'content page (initial, 0)' or 'changes from anchor (…)'),
            runs it alone in the provider, and prints every enumerator and observer call. With --list it only
            prints what would run. Repeat to walk through a sync one page or batch at a time.
            """,
        options: [listFlag, timeoutOption, jsonFlag],
        examples: ["contacts-host step --list", "contacts-host step", "contacts-host step --json"],
        environment: ["CONTACT_PROVIDER_EXTENSION", "OSLOG_DISABLE", "CONTACTS_HOST_PROGRESS"],
        exitCodes: [
            ExitCodeHelp(0, "the step ran (or --list printed it)"),
            ExitCodeHelp(1, "the step failed (the report says why)"), ExitCodeHelp(2, "usage error: nothing was run"),
        ],
        run: { arguments, context in
            let client = try SystemClient(appGroup: context.appGroup, domain: DomainManager.defaultDomainIdentifier)
            let state = try SystemStore(directory: client.paths.systemStore).load().meta ?? .initial
            let pending = SyncEngine.pendingOperation(for: state)
            if arguments.has(listFlag) {
                if arguments.has(jsonFlag) {
                    context.output.out(
                        try ContactJSON.report(PendingJSON(pending: "\(pending)", phase: state.phase.rawValue)))
                } else {
                    context.output.out("pending: \(pending)")
                }
                return ExitCode.success
            }
            if !arguments.has(jsonFlag) { context.output.out("running: \(pending)") }
            return try await SystemCommands.signalCommand(
                context: context, wait: true, timeout: try arguments.value(timeoutOption, default: 60),
                json: arguments.has(jsonFlag), trace: true, step: true)
        })

    static let listFlag = Flag("--list", help: "Only list the pending operation; run nothing.")
    static let timeoutOption = Option<Double>(
        "--timeout", value: "SECONDS", help: "How long to wait for the step (default 60).",
        convert: ArgumentValue.seconds)
    static let jsonFlag = JSONOutput.report(
        "the step's report, as signal --json with its \"transcript\"; with --list"
            + " {\"pending\", \"phase\": \"content\"|\"changes\"}")
}

/// `step --list --json`: the operation the next step would run.
struct PendingJSON: Codable {
    /// As `step --list` prints it (e.g. "content page (initial, 0)").
    var pending: String
    /// "content" or "changes".
    var phase: String
}
