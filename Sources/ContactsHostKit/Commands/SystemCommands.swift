import AppGroupStore
import CommandLineToolkit
import ContactProviderSystem
import Foundation

/// The `ContactProviderManager` side, and views of what the system received.
enum SystemCommands {
    static var all: [Command] { [enable, disable, invalidate, signal, status, systemList, systemReset] }

    static func client(_ context: CommandContext) throws -> SystemClient {
        try SystemClient(appGroup: context.appGroup, domain: DomainManager.defaultDomainIdentifier)
    }

    static let statusJSON = JSONOutput.report(
        "{\"anchor\"?, \"appCount\", \"appGroup\", \"appGroupSource\", \"batchSize\", \"domain\", \"enabled\","
            + " \"extensionPath\"?, \"lastSync\"? (as signal --json), \"nextPage\"?, \"pageSize\", \"phase\","
            + " \"providerBuild\"?, \"providerPID\"?, \"providerRunning\", \"store\" (the app's store, as --backend"
            + " names it), \"systemCount\"}; no appCount for a CardDAV store, which the host does not read")

    static let enableJSON = JSONOutput.report(
        "{\"batchSize\", \"domain\", \"extensionPath\", \"pageSize\", \"replacedExtensionPath\""
            + " (null unless another executable was registered), \"store\" (the app's store, as --backend names it)}")

    static let invalidateJSON = JSONOutput.report(
        "{\"invalidated\": true} when a provider ran invalidate() and exited, {\"invalidated\": false} when none was running"
    )

    /// What `invalidate --json` prints.
    struct InvalidateSummary: Encodable {
        var invalidated: Bool
    }

    /// What `enable --json` prints.
    struct EnableSummary: Encodable {
        var batchSize: Int
        var domain: String
        var extensionPath: String?
        var pageSize: Int
        var replacedExtensionPath: String?
        var store: String

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(batchSize, forKey: .batchSize)
            try container.encode(domain, forKey: .domain)
            try container.encode(extensionPath, forKey: .extensionPath)
            try container.encode(pageSize, forKey: .pageSize)
            try container.encode(replacedExtensionPath, forKey: .replacedExtensionPath)
            try container.encode(store, forKey: .store)
        }

        enum CodingKeys: String, CodingKey {
            case batchSize, domain, extensionPath, pageSize, replacedExtensionPath, store
        }
    }

    static let enable = Command(
        ["enable"], summary: "Enable the domain (ContactProviderManager.enable()) and register the provider.",
        discussion: """
            The provider executable defaults to the already registered one, else $CONTACT_PROVIDER_EXTENSION,
            else the example 'demo-provider' built with this package. Defaults: page size \(DomainConfiguration.defaultPageSize),
            batch size \(DomainConfiguration.defaultBatchSize). Set CONTACT_PROVIDER_USER_DECISION=deny to simulate the user declining.
            Registering a different executable than before is a different app: the system store starts empty, with no
            sync anchor, and the previous provider is invalidated. A rebuilt executable at the same path keeps them;
            the next signal retires a provider still running the old build.
            A provider built from a package gets its bundle identity (Bundle.main) from --bundle-identifier and the
            options after it, written beside the executable (<executable>.appex/Info.plist) and kept until changed;
            one built with --xcode-project gets it from the project. A running provider is ended when it changes.
            """,
        options: [
            EnableOptions.extensionPath, EnableOptions.pageSize, EnableOptions.batchSize, EnableOptions.hardCap,
            EnableOptions.pageTimeout, EnableOptions.invalidateTimeout, EnableOptions.idleTimeout,
            EnableOptions.itemsLimit, EnableOptions.backend, EnableOptions.paceAfterSave,
            XcodeProjectBuild.projectOption,
            XcodeProjectBuild.targetOption,
        ] + BundleIdentityOptions.all + [enableJSON],
        examples: [
            "contacts-host enable", "contacts-host enable --extension .build/debug/MyProvider --page-size 50",
            "contacts-host enable --xcode-project MyApp.xcodeproj",
            "contacts-host enable --extension .build/debug/MyProvider --bundle-identifier com.acme.Contacts.Provider --app-display-name 'Acme Contacts'",
        ],
        environment: [
            "CONTACT_PROVIDER_EXTENSION", "CONTACT_PROVIDER_USER_DECISION", "CONTACT_PROVIDER_APP_NAME",
            XcodeProjectBuild.simulatorVariable,
        ],
        exitCodes: [
            ExitCodeHelp(0, "the domain is enabled"),
            ExitCodeHelp(1, "the user declined, no provider executable was found, or the Xcode project did not build"),
            ExitCodeHelp(2, "usage error: nothing was run"),
        ],
        validate: {
            try XcodeProjectBuild.validate($0, extensionOption: EnableOptions.extensionPath)
            try BundleIdentityOptions.validate($0)
        },
        run: { arguments, context in
            let client = try client(context)
            var executable: String?
            var groupNote = ""
            if let path = try arguments.value(EnableOptions.extensionPath) {
                let absolute = AppGroup(path: path).path
                try ExecutableCheck.require(absolute, given: path, option: "--extension")
                executable = absolute
            }
            if let built = try XcodeProjectBuild.buildRequested(arguments, context: context) {
                executable = built.executable
                groupNote = built.target.appGroupIdentifier.map { ", App Group \($0)" } ?? ""
                XcodeProjectBuild.warnWithoutAppGroup(built.target, output: context.output)
            }
            let settings = try EnableOptions.Settings(arguments)
            if let kind = settings.backend, !kind.needsNetwork {
                // Read once before it is remembered: an adapter that does not start, or a file that is
                // not the store, is an error now, not at the first `add`.
                _ = try DomainAppStore.other(kind: kind, appGroup: context.appGroup)?.contacts()
            }
            let identity = try BundleIdentityOptions.Given(arguments)
            var identityChanged = false
            // Another bundle identifier is another app on iOS, as another executable is.
            var renamedFrom: String?
            if !identity.isEmpty || identity.appExecutable != nil {
                let bundled = try BundleIdentityOptions.executable(
                    executable, client: client, refusingProjectBuilt: !identity.isEmpty)
                if !identity.isEmpty || XcodeBuildRecord.read(forExecutable: bundled) == nil {
                    let bundle = try identity.bundle(forExecutable: bundled)
                    let before = ExecutableBundle.info(ofExecutable: bundled)?["CFBundleIdentifier"] as? String
                    identityChanged = try BundleIdentityOptions.write(bundle, forExecutable: bundled)
                    let after = bundle.info["CFBundleIdentifier"] as? String
                    if let before, let after, before != after { renamedFrom = before }
                    groupNote += ", bundle " + BundleIdentityOptions.describe(bundle)
                }
                try BundleIdentityOptions.writeApplication(identity, providerExecutable: bundled)
            }
            var replaced: String?
            try client.updateConfiguration { configuration in
                if let executable, let previous = configuration.extensionPath, previous != executable {
                    replaced = previous
                }
                if let executable { configuration.extensionPath = executable }
                settings.apply(to: &configuration)
            }
            if replaced != nil || renamedFrom != nil {
                // Another extension is another app on iOS: it never inherits the previous one's
                // contacts or sync anchor, and the previous provider no longer serves.
                try client.reset()
                if client.isProviderRunning { _ = try client.invalidate(timeout: nil) }
                let previous = replaced ?? "the bundle identifier \(renamedFrom ?? "")"
                context.output.err(
                    "a different extension than \(previous): the system store starts empty, with no sync anchor")
            } else if identityChanged, client.isProviderRunning {
                // Bundle.main is read once per process: the next launch has the new identity.
                _ = try client.invalidate(timeout: nil)
            }
            let manager = try DomainManager(appGroup: context.appGroup)
            try manager.enable()
            let configuration = try client.configuration()
            if arguments.has(enableJSON) {
                let summary = EnableSummary(
                    batchSize: configuration.batchSize, domain: DomainManager.defaultDomainIdentifier,
                    extensionPath: configuration.extensionPath, pageSize: configuration.pageSize,
                    replacedExtensionPath: replaced, store: try DomainAppStore.kind(of: configuration).description)
                context.output.out(try ContactJSON.report(summary))
                return ExitCode.success
            }
            if let store = configuration.backend { groupNote += ", app store \(store)" }
            context.output.out(
                "enabled \(DomainManager.defaultDomainIdentifier) with \(configuration.extensionPath ?? "?") (page size \(configuration.pageSize), batch size \(configuration.batchSize)\(groupNote))"
            )
            for line in ProviderDebugging.lines(
                executable: configuration.extensionPath, appGroup: context.appGroup.path)
            {
                context.output.out(line)
            }
            return ExitCode.success
        })

    static let disable = Command(
        ["disable"], summary: "Disable the domain: the system forgets every provided contact (R8).",
        examples: ["contacts-host disable"],
        run: { _, context in
            let client = try client(context)
            try client.updateConfiguration { $0.enabled = false }
            // Disabled is committed: what follows (R8) is reported as a warning, never an exit 1.
            do {
                try client.reset(marker: .disable)
            } catch {
                ContactCommands.warnAfterCommit(
                    "the domain is disabled, but emptying the system store failed (run 'contacts-host system reset'): "
                        + HostTool.describe(error), context: context)
            }
            do {
                _ = try client.invalidate()
            } catch {
                ContactCommands.warnAfterCommit(
                    "the domain is disabled, but stopping the provider failed: " + HostTool.describe(error),
                    context: context)
            }
            // R8: the extension stops, and nothing it started outlives the domain (issue 31 item 10).
            let leftovers = client.endLeftoverProcesses()
            if !leftovers.terminated.isEmpty {
                ContactCommands.warnAfterCommit(
                    "the domain is disabled; processes the provider started were still running (pids "
                        + "\(leftovers.terminated.map(String.init).joined(separator: ", "))); they were \(leftovers.summary)",
                    context: context)
            }
            return ExitCode.success
        })

    static let invalidate = Command(
        ["invalidate"], summary: "Ask the running provider to invalidate and exit (R10).",
        discussion: """
            A sync in flight ends after the page or batch it is on, with extensionInvalidated (R43); what it
            committed stays, and the next signal resumes from there.
            """,
        options: [invalidateJSON],
        examples: ["contacts-host invalidate", "contacts-host invalidate --json"],
        exitCodes: [
            ExitCodeHelp(0, "the provider invalidated and exited, or none was running"),
            ExitCodeHelp(1, "the provider reported an error"), ExitCodeHelp(2, "usage error: nothing was run"),
        ],
        run: { arguments, context in
            let client = try client(context)
            let json = arguments.has(invalidateJSON)
            guard let reply = try client.invalidate() else {
                // Nothing to do is a success; the JSON says so on stdout, the note stays on stderr.
                if json { context.output.out(try ContactJSON.report(InvalidateSummary(invalidated: false))) }
                context.output.err("no provider is running")
                return ExitCode.success
            }
            if let error = reply.error { throw CommandFailure(error.message) }
            context.output.out(
                json
                    ? try ContactJSON.report(InvalidateSummary(invalidated: true))
                    : "invalidated: the provider ran invalidate() and exited")
            return ExitCode.success
        })

    static let signal = Command(
        ["signal"], summary: "signalEnumerator(): ask the provider to sync (launching it if needed).",
        discussion: """
            --wait prints what the sync did; --json and --trace imply --wait. Exit 1 if the sync failed.
            Once a sync has run for a second, a progress line a second goes to stderr ("N of M" contacts or changes,
            M being the total the system can know). --timeout bounds silence: every committed page or batch restarts it,
            and it does not run out while a debugger is attached to the provider.
            --wait-for-debugger (implies --wait) prints the provider's pid and waits, with no time limit, until a
            debugger is attached (gdb -p PID, lldb-16 -p PID) and the provider runs again; then it signals. While a
            debugger is attached, time stopped at a breakpoint is not counted against the page, batch and
            invalidate limits (R41, R11), as with Xcode's debugger on a device; a plain SIGSTOP is.
            """,
        options: [
            SignalOptions.wait, SignalOptions.timeout, SignalOptions.json, SignalOptions.trace,
            SignalOptions.waitForDebugger, SignalOptions.relaunch,
        ],
        examples: [
            "contacts-host signal --wait", "contacts-host signal --wait --trace", "contacts-host signal --json",
            "contacts-host signal --wait-for-debugger", "contacts-host signal --relaunch --wait",
        ],
        environment: ["CONTACT_PROVIDER_EXTENSION", "OSLOG_DISABLE", "CONTACTS_HOST_PROGRESS"],
        exitCodes: [
            ExitCodeHelp(0, "signalled (with --wait: the sync succeeded)"),
            ExitCodeHelp(
                1, "the domain is disabled, the provider did not answer, or the sync failed (the report says why)"),
            ExitCodeHelp(2, "usage error: nothing was run"),
        ],
        run: { arguments, context in
            let json = arguments.has(SignalOptions.json)
            let trace = arguments.has(SignalOptions.trace)
            let waitForDebugger = arguments.has(SignalOptions.waitForDebugger)
            return try await signalCommand(
                context: context, wait: arguments.has(SignalOptions.wait) || json || trace || waitForDebugger,
                timeout: try arguments.value(SignalOptions.timeout, default: 60), json: json, trace: trace, step: false,
                waitForDebugger: waitForDebugger, relaunch: arguments.has(SignalOptions.relaunch))
        })

    static func signalCommand(
        context: CommandContext, wait: Bool, timeout: Double, json: Bool, trace: Bool, step: Bool,
        waitForDebugger: Bool = false, relaunch: Bool = false
    ) async throws -> Int32 {
        let client = try client(context)
        // Read once for the whole command. An unreadable domain.json is reported as such (path and
        // reason), not as "disabled".
        let configuration = try client.configuration()
        guard configuration.enabled else {
            throw CommandFailure(SystemClient.ClientError.domainDisabled.description)
        }
        // A provider built from an Xcode project serves the project as it is now: an edit is built first.
        try XcodeProjectBuild.rebuildIfChanged(executable: configuration.extensionPath, output: context.output)
        if relaunch, client.isProviderRunning {
            // As iOS ends an idle extension: the next launch reads its store afresh.
            if let error = try client.invalidate(timeout: nil)?.error {
                throw CommandFailure("--relaunch: the running provider's invalidate() failed: \(error.message)")
            }
        }
        guard wait else {
            try DomainManager(appGroup: context.appGroup).signalEnumerator()
            return ExitCode.success
        }
        // Ctrl-C while waiting: the wait ends, the reply FIFO is removed, exit 130.
        HostInterrupt.install()
        let monitor = SyncProgressMonitor(paths: client.paths, output: context.output)
        let reply: DoorbellReply?
        do {
            if waitForDebugger {
                try client.awaitDebugger(extensionPath: configuration.extensionPath) { pid in
                    context.output.err(
                        "provider pid \(pid) is waiting for a debugger: attach with 'gdb -p \(pid)' or 'lldb-16 -p \(pid)', "
                            + "set breakpoints, continue; the signal follows (Ctrl-C to give up)")
                }
                context.output.err("debugger attached; signalling")
            }
            // After a wait for a debugger, of any length, the domain is read again (it may be disabled now).
            reply = try client.signal(
                wait: true, timeout: timeout, trace: trace, step: step, extensionPath: configuration.extensionPath,
                configuration: waitForDebugger ? nil : configuration, progress: monitor.check)
        } catch SystemClient.ClientError.interrupted {
            context.output.err(
                "interrupted; the sync goes on in the provider ('contacts-host status' shows its result)")
            return 128 + SIGINT
        }
        guard let reply, let report = reply.report else {
            throw CommandFailure("the provider gave no report")
        }
        var transcript: [String] = []
        if trace, let path = reply.trace, let data = try? SecureFile.readIfPresent(path) {
            transcript = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            unlink(path)
        }
        if json {
            // One line, so scripts can read it with `read` or `jq -c` and logs keep one record per line.
            context.output.out(
                try ContactJSON.report(ReportJSON(report, transcript: trace ? transcript : nil)))
        } else {
            for line in transcript { context.output.out(line) }
            context.output.out(ReportJSON.text(report))
        }
        if trace {
            // The provider's own words when it could not reach its store (an App Group it is not entitled to).
            for line in ProviderDiagnosis.lines(inLog: client.paths.providerLog, pid: client.providerPID) {
                context.output.err("provider: \(line)")
            }
        }
        if let error = report.error {
            context.output.err("error: sync failed: \(error.message)")
            return ExitCode.failure
        }
        if !step, let warning = StoreDifference.warning(after: report, configuration: configuration, context: context) {
            context.output.err("warning: \(warning)")
        }
        return ExitCode.success
    }

    static let status = Command(
        ["status"], summary: "Show the domain: enabled, provider running, committed position, counts, last sync.",
        options: [statusJSON],
        examples: ["contacts-host status", "contacts-host status --json"],
        run: { arguments, context in
            let client = try client(context)
            let configuration = try client.configuration()
            // Counts from headers and journal entries: status does not read a million contacts.
            let system = try SystemStore(directory: client.paths.systemStore).summary()
            let store = try DomainAppStore.kind(of: configuration)
            let appCount =
                store == .appDatabase
                ? try AppDatabase(appGroup: context.appGroup).store.summary().count
                : DomainAppStore.count(kind: store, appGroup: context.appGroup)
            let syncState = system.meta ?? .initial
            let status = StatusJSON(
                appGroup: context.appGroup.path, appGroupSource: context.appGroupSource.rawValue,
                domain: DomainManager.defaultDomainIdentifier, enabled: configuration.enabled,
                extensionPath: configuration.extensionPath, providerRunning: client.isProviderRunning,
                providerPID: client.providerPID, providerBuild: StatusJSON.buildText(client.servingBuild()),
                pageSize: configuration.pageSize, batchSize: configuration.batchSize,
                phase: syncState.phase.rawValue,
                nextPage: syncState.phase == .content
                    ? (syncState.nextPage.map(PositionJSON.init) ?? PositionJSON(.initial)) : nil,
                anchor: syncState.phase == .changes ? syncState.anchor.map(PositionJSON.init) : nil,
                appCount: appCount, store: store.description, systemCount: system.count,
                lastSync: try SyncEngine.lastReport(paths: client.paths).map { ReportJSON($0, transcript: nil) })
            if arguments.has(statusJSON) {
                context.output.out(try ContactJSON.report(status))
            } else {
                context.output.out(status.text)
                for line in ProviderDebugging.lines(
                    executable: configuration.extensionPath, appGroup: context.appGroup.path)
                {
                    context.output.out(line)
                }
            }
            return ExitCode.success
        })

    static let systemList = Command(
        ["system", "list"], summary: "List the contacts the system received (the system store).",
        options: [ContactCommands.listJSON],
        examples: ["contacts-host system list", "contacts-host system list --json"],
        run: { arguments, context in
            // Streamed as list streams the app's (issue 44): a contact decoded at a time, never the book.
            var list = ContactCommands.ListStream(json: arguments.has(ContactCommands.listJSON), output: context.output)
            try SystemStore(directory: try client(context).paths.systemStore).forEachContact { try list.add($0) }
            list.finish()
            return ExitCode.success
        })

    static let systemReset = Command(
        ["system", "reset"],
        summary:
            "ContactProviderManager.reset(): empty the system store; the next sync is a full content enumeration (R9).",
        examples: ["contacts-host system reset && contacts-host signal --wait"],
        run: { _, context in
            try DomainManager(appGroup: context.appGroup).reset()
            return ExitCode.success
        })
}
