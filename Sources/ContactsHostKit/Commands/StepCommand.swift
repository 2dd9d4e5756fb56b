import AppGroupStore
import ContactProvider
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
        options: [
            OptionSpec("--list", help: "Only list the pending operation; run nothing."),
            OptionSpec("--timeout", value: "SECONDS", help: "How long to wait for the step (default 60)."),
            OptionSpec("--json", help: "Print the step's report as JSON."),
        ],
        validate: { arguments in
            if let value = arguments.value("--timeout") { _ = try ArgumentValue.seconds(value, option: "--timeout") }
        },
        run: { arguments, context in
            let client = try SystemClient(appGroup: context.appGroup, domain: DefaultContactProviderDomain.identifier)
            let state = try SystemStore(directory: client.paths.systemStore).load().meta ?? .initial
            let pending = SyncEngine.pendingOperation(for: state)
            if arguments.has("--list") {
                context.output.out("pending: \(pending)")
                return HostTool.ExitCode.success
            }
            if !arguments.has("--json") { context.output.out("running: \(pending)") }
            return try await SystemCommands.signalCommand(
                context: context, wait: true, timeout: arguments.value("--timeout").flatMap(Double.init) ?? 60,
                json: arguments.has("--json"), trace: true, step: true)
        })
}
