import AppGroupStore
import CommandLineToolkit
import ContactProviderSystem
import ContactsInterop
import Foundation

/// `contacts-host demo`: the whole flow, end to end, with real processes and pipes.
package enum DemoCommand {
    static let command = Command(
        ["demo"], summary: "Run the main job: enable the example provider, add, sync, edit, delete, sync, reset, sync.",
        discussion: """
            "The main job" is the whole round trip a Contact Provider app does: the app edits its contacts,
            signals, the system launches the provider, which sends pages and batches, and the system's copy
            ends up equal to the app's. The demo runs it in its own App Group (\(demoDirectoryName) beside the
            default one; the first line prints it), so your registered provider and contacts are never touched.
            With --app-group or $\(AppGroup.environmentVariable) it uses that App Group instead, but only if it is
            empty or holds nothing but the demo's own contacts; --force resets it anyway. It uses the
            'demo-provider' example with a page size of 2 so paging is visible, prints what the system received
            after each step, and stops the provider at the end.
            """,
        options: [extensionOption, forceFlag],
        examples: ["contacts-host demo", "contacts-host demo --extension .build/debug/MyProvider"],
        environment: ["OSLOG_DISABLE"],
        exitCodes: [
            ExitCodeHelp(0, "every step's system store equalled the app database"),
            ExitCodeHelp(1, "a step failed, or the chosen App Group holds your data and --force was not given"),
            ExitCodeHelp(2, "usage error: nothing was run"),
        ],
        run: { arguments, context in try await run(arguments, context) })

    /// The directory name of the demo's own App Group, beside the default App Group.
    static let demoDirectoryName = "DemoAppGroup"

    /// The contacts the demo itself adds (given, family, phone); Jane is deleted and Carol added later.
    static let samples: [(String, String, String)] = [
        ("John", "Appleseed", "+1 408 555 0101"), ("Jane", "Doe", "+31 6 1234 5678"),
        ("Wesley", "de Groot", "+31 6 8765 4321"), ("Alice", "Johnson", "+44 20 7946 0000"),
        ("Bob", "Williams", "+1 212 555 0199"),
    ]

    /// The App Group the demo runs in: its own unless the user chose one.
    static func demoGroup(_ context: CommandContext) -> AppGroup {
        context.appGroupSource == .default
            ? AppGroup(path: AppGroup.dataDirectory() + "/" + demoDirectoryName) : context.appGroup
    }

    /// Why the demo must not reset `group` (the user's contacts or provider are in it), or nil. Reads only.
    static func userData(in group: AppGroup, provider: String) throws -> String? {
        let demoNames = Set(samples.map { "\($0.0) \($0.1)" } + ["Carol Nguyen"])
        let contacts = try AppDatabase.searchable(appGroup: group).all()
        let foreign = contacts.filter { !demoNames.contains("\($0.givenName) \($0.familyName)") }
        if !foreign.isEmpty {
            return "it holds \(foreign.count) contact(s) the demo did not add (e.g. '\(foreign[0].displayName)')"
        }
        let client = try SystemClient(appGroup: group, domain: DomainManager.defaultDomainIdentifier)
        if FileManager.default.fileExists(atPath: client.paths.configuration),
            let registered = try client.configuration().extensionPath, registered != provider
        {
            return "its registered provider is \(registered)"
        }
        return nil
    }

    static let extensionOption = Option<String>(
        "--extension", value: "PATH", help: "Use this provider executable instead of demo-provider.")
    static let forceFlag = Flag(
        "--force", help: "Reset a chosen App Group that holds other contacts or another provider.")

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> Int32 {
        let out = context.output
        let group = demoGroup(context)
        guard
            let provider = try arguments.value(extensionOption).map({ AppGroup(path: $0).path })
                ?? ExtensionDiscovery.executable(configured: nil) ?? buildDemoProvider(out)
        else {
            throw CommandFailure(
                "cannot find the 'demo-provider' executable next to contacts-host; run 'swift build' first")
        }
        if context.appGroupSource != .default, !arguments.has(forceFlag),
            let reason = try userData(in: group, provider: provider)
        {
            throw CommandFailure(
                "demo would reset the App Group \(group.path) (\(context.appGroupSource.explanation)): \(reason). "
                    + "Run 'contacts-host demo' without --app-group and $\(AppGroup.environmentVariable) to use the demo's own App Group, "
                    + "or add --force to reset this one; nothing was changed")
        }
        if context.appGroupSource == .default {
            out.out("App Group: \(group.path) (the demo's own; your App Group \(context.appGroup.path) is not touched)")
        } else {
            out.out("App Group: \(group.path) (\(context.appGroupSource.explanation))")
        }
        let client = try SystemClient(appGroup: group, domain: DomainManager.defaultDomainIdentifier)
        let database = AppDatabase.searchable(appGroup: group)
        out.out("Provider:  \(provider)\n")

        try client.shutdownProvider()
        try database.reset()
        try client.reset()
        try client.updateConfiguration { configuration in
            configuration.extensionPath = provider
            configuration.pageSize = 2
            configuration.batchSize = 2
        }
        let manager = try DomainManager(appGroup: group)
        try manager.enable()
        out.out("1. Enabled the domain (suggestedPageSize 2, suggestedBatchSize 2).\n")

        var identifiers: [String] = []
        for (given, family, phone) in samples {
            var record = ContactRecord(identifier: "")
            record.givenName = given
            record.familyName = family
            record.phoneNumbers = [.init(label: Labels.stored("mobile"), value: phone)]
            record.emailAddresses = [.init(label: Labels.stored("work"), value: "\(given.lowercased())@example.com")]
            identifiers.append(try database.add(record).identifier)
        }
        out.out("2. The app added \(counted(samples.count, "contact")).\n")
        try step(
            "3. signalEnumerator() → the provider is launched; first sync is a content enumeration:", client, database,
            out)

        try database.update(identifiers[0]) {
            $0.phoneNumbers = [.init(label: Labels.stored("work"), value: "+1 408 555 0102")]
        }
        try database.delete([identifiers[1]])
        var added = ContactRecord(identifier: "")
        added.givenName = "Carol"
        added.familyName = "Nguyen"
        added.organizationName = "Example Corp"
        try database.add(added)
        out.out("4. The app changed John's phone, deleted Jane and added Carol.\n")
        try step("5. signalEnumerator() → a change enumeration delivers only the changes:", client, database, out)

        try manager.reset()
        try step(
            "6. ContactProviderManager.reset() then signalEnumerator() → a full content enumeration again:", client,
            database, out)

        _ = try client.invalidate()
        try client.updateConfiguration { configuration in
            configuration.pageSize = DomainConfiguration.defaultPageSize
            configuration.batchSize = DomainConfiguration.defaultBatchSize
        }
        out.out("7. invalidate() → the provider's invalidate() ran and the process exited.")
        // Always named: the App Group chosen by a flag or by a variable set for this command only
        // would not be the one a pasted command runs in.
        let groupOption = " --app-group \(ShellWord.quote(group.path))"
        let tool = ShellWord.quote(invocation())
        out.out(
            "\nTry it yourself: \(tool)\(groupOption) add --given-name Ada --family-name Lovelace && \(tool)\(groupOption) signal --wait --trace"
        )
        return ExitCode.success
    }

    /// How to type this `contacts-host`: its bare name when `PATH` finds this very executable, else its
    /// path (relative to the working directory when inside it), so the demo's last line works when pasted
    /// right after `swift run contacts-host demo`, before any `export PATH=…`.
    static func invocation(
        executable: String? = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
        path: String = ProcessInfo.processInfo.environment["PATH"] ?? "",
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) -> String {
        guard let executable else { return "contacts-host" }
        let name = (executable as NSString).lastPathComponent
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = String(directory) + "/" + name
            guard FileManager.default.isExecutableFile(atPath: candidate) else { continue }
            // The first match is what the shell runs: the bare name only when it is this executable.
            let resolved = (candidate as NSString).resolvingSymlinksInPath
            return resolved == (executable as NSString).resolvingSymlinksInPath ? name : executable
        }
        // Relative to a working directory that holds it (not to /, where the path is as short absolute).
        guard workingDirectory != "/", executable.hasPrefix(workingDirectory + "/") else { return executable }
        return String(executable.dropFirst(workingDirectory.count + 1))
    }

    /// `swift run contacts-host demo` builds only contacts-host: build the example provider beside
    /// it (same package, same configuration) the first time.
    private static func buildDemoProvider(_ out: CommandOutput) throws -> String? {
        guard let tree = PackageBuild.tree(of: PackageBuild.runningExecutable) else { return nil }
        out.err("building demo-provider (first run)…")
        guard try PackageBuild.build("demo-provider", in: tree) == 0 else {
            throw CommandFailure("building demo-provider failed; run 'swift build' in \(tree.root)")
        }
        return ExtensionDiscovery.executable(configured: nil)
    }

    private static func step(_ title: String, _ client: SystemClient, _ database: AppDatabase, _ out: CommandOutput)
        throws
    {
        try syncStep(title, client, out, source: "the app database") { try database.all() }
    }

    /// One demo step: signals and waits, prints the calls and the report, lists what the system holds,
    /// and checks it equals `expected()` (the contacts of `source`); throws when the sync failed or differs.
    package static func syncStep(
        _ title: String, _ client: SystemClient, _ out: CommandOutput, source: String,
        expected: () throws -> [ContactRecord]
    ) throws {
        out.out(title)
        guard let reply = try client.signal(wait: true, timeout: 60, trace: true), let report = reply.report else {
            throw CommandFailure("the provider gave no report")
        }
        if let path = reply.trace, let data = try SecureFile.readIfPresent(path) {
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") { out.out("   " + line) }
            unlink(path)
        }
        for line in ReportJSON.text(report).split(separator: "\n") { out.out("   " + line) }
        if let error = report.error { throw CommandFailure("sync failed: \(error.message)") }
        let system = try SystemStore(directory: client.paths.systemStore).load().contacts
        out.out("   the system now has:")
        for record in system.sorted(by: { $0.displayName < $1.displayName }) {
            out.out("     • \(record.displayName)" + (record.phoneNumbers.first.map { " (\($0.value))" } ?? ""))
        }
        let wanted = try expected()
        let matches = Set(wanted) == Set(system)
        out.out(
            "   \(matches ? "✓" : "✗") the system store \(matches ? "equals" : "DIFFERS FROM") \(source) (\(counted(wanted.count, "contact")))\n"
        )
        if !matches { throw CommandFailure("the system store does not match \(source)") }
    }
}
