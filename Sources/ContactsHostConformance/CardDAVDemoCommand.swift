import AppGroupStore
import CommandLineToolkit
import ContactProviderConformance
import ContactProviderSystem
import ContactsHostKit
import Foundation

/// `contacts-host demo carddav`: the demo's flow with the data on a CardDAV server (a Radicale it
/// starts) and the `carddav-provider` example syncing from it.
enum CardDAVDemoCommand {
    static let command = Command(
        ForwardedCommands.demoCardDAV.name, summary: ForwardedCommands.demoCardDAV.summary,
        discussion: """
            Installs Radicale (pinned, into .build/test-tools-venv, on first use, via
            Scripts/install-test-tools.sh), starts it on 127.0.0.1 with a temporary address book, points the
            'carddav-provider' example at it (carddav.json in the App Group), and shows what the system
            receives after the server's contacts are added, edited and deleted. The App Group's sync
            state is reset first; Radicale and the provider are stopped at the end.
            """,
        options: [extensionOption, pythonOption],
        run: { arguments, context in try await run(arguments, context) })

    static let extensionOption = Option<String>(
        "--extension", value: "PATH", help: "Use this provider executable instead of carddav-provider.")
    static let pythonOption = Option<String>(
        "--python", value: "PATH", help: "A python3 with Radicale installed (skips the installer).")

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> Int32 {
        let out = context.output
        let productDirectory = (PackageBuild.runningExecutable as NSString).deletingLastPathComponent
        let provider =
            try arguments.value(extensionOption).map { AppGroup(path: $0).path } ?? productDirectory
            + "/carddav-provider"
        guard FileManager.default.isExecutableFile(atPath: provider) else {
            throw CommandFailure("cannot find the provider \(provider); run 'swift build' first")
        }
        let python = try arguments.value(pythonOption) ?? installRadicale(near: productDirectory, out)
        let server = try RadicaleServer(python: python)
        defer { server.stop() }
        let backend = try CardDAVBackend(
            collection: URL(string: "demo/contacts/", relativeTo: server.baseURL)!.absoluteURL)
        try backend.reset()
        out.out("App Group: \(context.appGroup.path)")
        out.out("Provider:  \(provider)")
        out.out("Server:    Radicale at \(backend.collection.absoluteString)\n")

        let client = try SystemClient(appGroup: context.appGroup, domain: DomainManager.defaultDomainIdentifier)
        try client.shutdownProvider()
        try client.reset()
        try backend.configureProvider(in: context.appGroup)
        try client.updateConfiguration { configuration in
            configuration.extensionPath = provider
            configuration.pageSize = 2
            configuration.batchSize = 2
        }
        defer { _ = try? client.invalidate() }
        try DomainManager(appGroup: context.appGroup).enable()
        out.out("1. Wrote carddav.json and enabled the domain (suggestedPageSize 2, suggestedBatchSize 2).\n")

        let people = [
            ("ada", "Ada", "Lovelace", "+44 20 7946 0000"), ("bob", "Bob", "Smith", "+1 212 555 0199"),
            ("cleo", "Cléo", "Dupont", "+33 1 23 45 67 89"),
        ]
        for (identifier, given, family, phone) in people {
            var record = ContactRecord(identifier: identifier)
            record.givenName = given
            record.familyName = family
            record.phoneNumbers = [.init(label: Labels.stored("mobile"), value: phone)]
            try backend.add(record)
        }
        out.out("2. PUT \(people.count) vCards on the server.\n")
        try step(
            "3. signalEnumerator() → content enumeration from the server's listing (sync-token as marker):",
            client, backend, out)

        var ada = try backend.contacts().first { $0.identifier == "ada" } ?? ContactRecord(identifier: "ada")
        ada.familyName = "King"
        try backend.update(ada)
        try backend.delete(identifier: "bob")
        var dan = ContactRecord(identifier: "dan")
        dan.givenName = "Dan"
        dan.familyName = "Brown"
        try backend.add(dan)
        out.out("4. On the server: edited Ada, deleted Bob, added Dan.\n")
        try step(
            "5. signalEnumerator() → sync-collection from the anchor's token delivers only the changes:",
            client, backend, out)
        out.out("6. Stopping the provider and Radicale.")
        out.out(
            "\nPoint the example at your own server: contacts-host carddav configure --url URL --username U --password-file F"
        )
        return ExitCode.success
    }

    /// Runs the repository's installer (idempotent) and returns the python3 that has Radicale.
    private static func installRadicale(near productDirectory: String, _ out: CommandOutput) throws -> String {
        guard let root = PackageBuild.packageRoot(of: productDirectory) else {
            throw CommandFailure("cannot find the package (no .build in \(productDirectory)); pass --python PATH")
        }
        let script = root + "/Scripts/install-test-tools.sh"
        out.err("installing Radicale if needed (\(script))…")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script]
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.standardError
        try process.run()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let python = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, !python.isEmpty else {
            throw CommandFailure("\(script) could not install Radicale (exit \(process.terminationStatus)); see above")
        }
        return python
    }

    private static func step(_ title: String, _ client: SystemClient, _ backend: CardDAVBackend, _ out: CommandOutput)
        throws
    {
        try DemoCommand.syncStep(title, client, out, source: "the server's address book") { try backend.contacts() }
    }
}
