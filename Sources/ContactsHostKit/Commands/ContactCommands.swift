import AppGroupStore
import CommandLineToolkit
import ContactProviderSystem
import ContactsInterop
import Foundation

/// The app's side: commands that edit the contact database in the App Group.
enum ContactCommands {
    static var all: [Command] { [add, update, delete, get, list, reset, importCommand, export] }

    /// The field options of `add` and `update`, each declared once with its type (`ContactFieldOptions`).
    static var fieldOptions: [any OptionDeclaration] { ContactFieldOptions.all }

    /// Applies the field options; a repeated list option replaces that whole list. The parser has
    /// already checked every value (dates, phone digits, e-mail shape, misspelt labels).
    static func apply(_ arguments: ParsedArguments, to record: inout ContactRecord) throws {
        typealias Field = ContactFieldOptions
        if let value = try arguments.value(Field.givenName) { record.givenName = value }
        if let value = try arguments.value(Field.familyName) { record.familyName = value }
        if let value = try arguments.value(Field.middleName) { record.middleName = value }
        if let value = try arguments.value(Field.nickname) { record.nickname = value }
        if let value = try arguments.value(Field.organization) { record.organizationName = value }
        if let value = try arguments.value(Field.department) { record.departmentName = value }
        if let value = try arguments.value(Field.jobTitle) { record.jobTitle = value }
        if let value = try arguments.value(Field.note) { record.note = value }
        if let value = try arguments.value(Field.birthday) { record.birthday = value }
        if arguments.has(Field.phone) { record.phoneNumbers = try arguments.values(Field.phone) }
        if arguments.has(Field.email) { record.emailAddresses = try arguments.values(Field.email) }
        if arguments.has(Field.url) { record.urlAddresses = try arguments.values(Field.url) }
    }

    /// Compaction after a committed write is housekeeping: its failure (a full disk, a damaged line)
    /// is a warning, never exit 1, or a script that retries the "failed" command would repeat a
    /// committed change (a retried `add` duplicates the contact). The next write retries it.
    static func compactAfterCommit(_ database: AppDatabase, context: CommandContext) {
        do {
            try database.compactIfNeeded()
        } catch {
            warnAfterCommit(
                "the change is committed, but compacting the database failed (the next write retries): "
                    + HostTool.describe(error), context: context)
        }
    }

    /// One stderr line for a failure that follows a committed change (the command still exits 0).
    static func warnAfterCommit(_ message: String, context: CommandContext) {
        context.output.err("warning: \(message)")
    }

    static let addJSON = JSONOutput.report("{\"identifier\": ID} instead of the identifier alone")
    static let updateJSON = JSONOutput.report("{\"identifier\": ID} instead of the identifier alone")

    static let add = Command(
        ["add"],
        summary:
            "Add a contact to the app's store (enable --backend; the App Group database by default); prints its identifier.",
        discussion: "Without --id a new UUID is assigned. Adding appends one journal line: O(1) in the database size.",
        options: fieldOptions + [ContactFieldOptions.identifier, addJSON],
        examples: [
            "contacts-host add --given-name Ada --family-name Lovelace --phone \"mobile=+44 20 7946 0000\" --email work=ada@example.com",
            "contacts-host add --id ada-1 --organization \"Analytical Engines Ltd\"",
        ],
        validate: { arguments in
            typealias Field = ContactFieldOptions
            guard arguments.has(Field.givenName) || arguments.has(Field.familyName) || arguments.has(Field.organization)
            else {
                throw UsageError("a contact needs --given-name, --family-name or --organization")
            }
        },
        run: { arguments, context in
            var record = ContactRecord(identifier: try arguments.value(ContactFieldOptions.identifier) ?? "")
            try apply(arguments, to: &record)
            if let store = try DomainAppStore.other(context) {
                let added = try store.add(record)
                context.output.out(
                    arguments.has(addJSON) ? try ContactJSON.report(["identifier": added.identifier]) : added.identifier
                )
                return ExitCode.success
            }
            let database = AppDatabase.searchable(appGroup: context.appGroup)
            let added = try database.add(record)
            if arguments.has(addJSON) {
                context.output.out(try ContactJSON.report(["identifier": added.identifier]))
            } else {
                context.output.out(added.identifier)
            }
            compactAfterCommit(database, context: context)
            return ExitCode.success
        })

    static let update = Command(
        ["update"], summary: "Change fields of an existing contact.",
        discussion: "Only the options given change. A repeated --phone/--email/--url replaces that whole list.",
        options: fieldOptions + [updateJSON], positional: PositionalSpec("ID", minimum: 1, maximum: 1),
        examples: [
            "contacts-host update ada-1 --job-title Mathematician",
            "contacts-host update ada-1 --phone \"home=+44 20 7946 0001\" --phone \"mobile=+44 7700 900000\"",
        ],
        validate: { arguments in
            guard fieldOptions.contains(where: { arguments.has($0.spec.name) }) else {
                throw UsageError("nothing to change: give at least one field option")
            }
        },
        run: { arguments, context in
            let store = try DomainAppStore.other(context)
            let database = AppDatabase.searchable(appGroup: context.appGroup)
            let updated =
                try store?.update(arguments.positionals[0]) { try apply(arguments, to: &$0) }
                ?? database.update(arguments.positionals[0]) { try apply(arguments, to: &$0) }
            context.output.out(
                arguments.has(updateJSON)
                    ? try ContactJSON.report(["identifier": updated.identifier]) : updated.identifier)
            if store == nil { compactAfterCommit(database, context: context) }
            return ExitCode.success
        })

    static let delete = Command(
        ["delete"], summary: "Delete contacts (all or nothing: an unknown ID deletes none).",
        positional: PositionalSpec("ID", minimum: 1, maximum: .max),
        examples: ["contacts-host delete ada-1", "contacts-host delete ada-1 bob-2"],
        run: { arguments, context in
            if let store = try DomainAppStore.other(context) {
                try store.delete(arguments.positionals)
                return ExitCode.success
            }
            let database = AppDatabase.searchable(appGroup: context.appGroup)
            try database.delete(arguments.positionals)
            compactAfterCommit(database, context: context)
            return ExitCode.success
        })

    static let get = Command(
        ["get"], summary: "Show one contact.",
        options: [getJSON],
        positional: PositionalSpec("ID", minimum: 1, maximum: 1),
        examples: ["contacts-host get ada-1", "contacts-host get ada-1 --json"],
        run: { arguments, context in
            let identifier = arguments.positionals[0]
            guard
                let record = try DomainAppStore.other(context)?.contact(identifier)
                    ?? AppDatabase.searchable(appGroup: context.appGroup).get(identifier)
            else {
                throw StoreError.notFound(identifier: identifier)
            }
            context.output.out(arguments.has(getJSON) ? try ContactJSON.report(record) : ContactJSON.detail(record))
            return ExitCode.success
        })

    static let list = Command(
        ["list"], summary: "List the app's contacts.",
        options: [listJSON],
        examples: ["contacts-host list", "contacts-host list --json"],
        run: { arguments, context in
            if let store = try DomainAppStore.other(context) {
                printList(try store.contacts(), json: arguments.has(listJSON), context: context)
                return ExitCode.success
            }
            // The App Group database streams (issue 44): a chunk of contacts at a time, never the book.
            var list = ListStream(json: arguments.has(listJSON), output: context.output)
            try AppDatabase.searchable(appGroup: context.appGroup).forEachContact { try list.add($0) }
            list.finish()
            return ExitCode.success
        })

    static func printList(_ records: [ContactRecord], json: Bool, context: CommandContext) {
        var list = ListStream(json: json, output: context.output)
        for record in records { try? list.add(record) }
        list.finish()
    }

    /// `list`'s output written as the contacts come: a line each, or (`--json`) one JSON array whose
    /// elements are written a chunk at a time, a chunk a line (`[{…},{…},` … `{…}]`: the same array),
    /// by the host's one `ChunkedWriter`.
    struct ListStream {
        let json: Bool
        let output: CommandOutput
        private var array: ChunkedWriter

        init(json: Bool, output: CommandOutput) {
            self.json = json
            self.output = output
            array = ChunkedWriter(output: output, open: "[", separator: ",", close: "]")
        }

        mutating func add(_ record: ContactRecord) throws {
            guard json else {
                output.out(ContactJSON.line(record))
                return
            }
            array.add(try ContactJSON.report(record))
        }

        mutating func finish() {
            guard json else { return }
            array.finish()
        }
    }

    static let reset = Command(
        ["reset"],
        summary: "Empty the app's store (the App Group database: a new generation) and reset the system side.",
        discussion:
            "Like the seed demo's Reset button: the database is emptied and ContactProviderManager.reset() is called.",
        examples: ["contacts-host reset"],
        run: { _, context in
            if let store = try DomainAppStore.other(context) {
                try store.reset()
            } else {
                try AppDatabase.searchable(appGroup: context.appGroup).reset()
            }
            // The app database is reset (committed): a failure of the system side is reported, not an exit 1.
            do {
                try SystemClient(appGroup: context.appGroup, domain: DomainManager.defaultDomainIdentifier).reset()
            } catch {
                warnAfterCommit(
                    "the app database was reset, but resetting the system store failed (run 'contacts-host system reset'): "
                        + HostTool.describe(error), context: context)
            }
            return ExitCode.success
        })

    static let importCommand = Command(
        ["import"], summary: "Import contacts from a JSON or vCard file ('-' reads stdin).",
        discussion: """
            Accepts vCard 2.1/3.0/4.0 (.vcf), this tool's export document, a JSON array of contacts
            (list --json), or the seed demo's ContactItems.json. Existing identifiers are replaced. A
            malformed JSON file writes nothing; a malformed vCard card is reported with its line number and
            the rest of the file is imported, unless --stop-on-error is given (then nothing is written).
            """,
        options: [stopOnError, importJSON],
        positional: PositionalSpec("FILE", minimum: 1, maximum: 1),
        examples: [
            "contacts-host import contacts.vcf",
            "contacts-host export > backup.json && contacts-host import backup.json",
            "cat contacts.vcf | contacts-host import -",
        ],
        environment: ["CONTACTS_HOST_PROGRESS"],
        run: { arguments, context in
            let path = arguments.positionals[0]
            let source = path == "-" ? "<stdin>" : path
            let ticker = ProgressTicker(output: context.output, prefix: "import", phase: "reading \(source)")
            defer { ticker.stop() }
            let data: Data
            if path == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                // Mapped, not copied: a large file's pages are read as the import reaches them.
                guard
                    let contents = (try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped))
                        ?? FileManager.default.contents(atPath: path)
                else {
                    throw CommandFailure("\(path): cannot read the file")
                }
                data = contents
            }
            if let store = try DomainAppStore.other(context) {
                return try importIntoStore(data, source: source, store: store, arguments: arguments, context: context)
            }
            let database = AppDatabase.searchable(appGroup: context.appGroup)
            var skipped = 0
            let total: Int
            let result: (added: Int, updated: Int)
            do {
                if ContactImport.isVCard(data, path: path) {
                    let decoded = VCard.decode(data: data, stopOnError: arguments.has(stopOnError))
                    for problem in decoded.problems {
                        context.output.err("\(source):\(problem.line): \(problem.message)")
                    }
                    if arguments.has(stopOnError), let first = decoded.errors.first {
                        throw CommandFailure(
                            "\(source):\(first.line): import aborted (--stop-on-error); nothing was written")
                    }
                    skipped = decoded.errors.count
                    total = decoded.contacts.count
                    ticker.set("writing 0/\(total) contacts")
                    result = try database.upsert(decoded.contacts) { done in
                        ticker.set("writing \(done)/\(total) contacts")
                    }
                } else if let stream = try {
                    ticker.set("checking \(source)")
                    return try ContactImportStream.check(data)
                }() {
                    // JSON, streamed: every contact was checked above (nothing is written for a bad
                    // file); now each is decoded again as it is written, batch by batch.
                    total = stream.elements.count
                    ticker.set("writing 0/\(total) contacts")
                    result = try database.upsert(
                        count: total,
                        progress: { done in
                            ticker.set("writing \(done)/\(total) contacts")
                        }, transcode: stream.transcode(at:into:), record: stream.record(at:))
                } else {
                    // Anything unusual (an error to report with its line): the whole document at once.
                    let records = try ContactImport.decode(data, source: source)
                    total = records.count
                    ticker.set("writing 0/\(total) contacts")
                    result = try database.upsert(records) { done in ticker.set("writing \(done)/\(total) contacts") }
                }
            } catch let partial as AppDatabase.PartialImport {
                // Some contacts are in the database: say how many, so the user knows what to re-import.
                throw CommandFailure("import stopped: \(partial)")
            }
            // Compacting (rewriting the snapshot) happens before the result line, so the prompt returns
            // when the result is printed; the import is already committed, so a failure here is a
            // warning and the command still exits 0 (a retried import would only repeat it).
            ticker.set("compacting the database (the \(total) contacts are committed)")
            compactAfterCommit(database, context: context)
            ticker.stop()
            if arguments.has(importJSON) {
                let summary = ImportSummary(
                    added: result.added, imported: total, skipped: skipped, updated: result.updated)
                context.output.out(try ContactJSON.report(summary))
                return ExitCode.success
            }
            context.output.out(
                "imported \(counted(total, "contact")) (\(result.added) added, \(result.updated) updated, \(skipped) skipped)"
            )
            return ExitCode.success
        })

    static let export = Command(
        ["export"], summary: "Write the app's whole store to stdout as JSON (default) or vCard.",
        options: [ExportOptions.json, ExportOptions.vcard, ExportOptions.version, ExportOptions.salvage],
        examples: ["contacts-host export > backup.json", "contacts-host export --vcard --version 4.0 > contacts.vcf"],
        environment: ["CONTACTS_HOST_PROGRESS"],
        validate: { arguments in
            if arguments.has(ExportOptions.json), arguments.has(ExportOptions.vcard) {
                throw UsageError("choose one of --json and --vcard")
            }
            if arguments.has(ExportOptions.version), !arguments.has(ExportOptions.vcard) {
                throw UsageError("--version applies to --vcard only")
            }
        },
        run: { arguments, context in
            // A large database takes seconds to read, encode and write (100,000 contacts): say which.
            let ticker = ProgressTicker(output: context.output, prefix: "export", phase: "reading the database")
            defer { ticker.stop() }
            let format: ContactExportStream.Format =
                arguments.has(ExportOptions.vcard)
                ? .vCard(try arguments.value(ExportOptions.version) ?? .v3) : .json
            var total = 0
            // Written as read, a chunk at a time: memory holds a chunk, not the address book and its
            // text. A write blocks while a slow reader lags (a pipe): that is progress too.
            var stream = try ContactExportStream(format: format, output: context.output) { written in
                ticker.set("writing to stdout: \(written) of \(counted(total, "contact"))")
            }
            func add(_ record: ContactRecord) throws { try stream.add(record) }
            if let store = try DomainAppStore.other(context) {
                guard !arguments.has(ExportOptions.salvage) else {
                    throw CommandFailure(
                        "--salvage reads a damaged App Group database; the app's store is \(store.kind) (\(DomainAppStore.option))"
                    )
                }
                let records = try store.contacts()
                total = records.count
                for record in records { try add(record) }
            } else if arguments.has(ExportOptions.salvage) {
                let salvage = try AppDatabase.searchable(appGroup: context.appGroup).store.salvage()
                for problem in salvage.problems { context.output.err(problem.description) }
                total = salvage.contacts.count
                for record in salvage.contacts { try add(record) }
            } else {
                try AppDatabase(appGroup: context.appGroup).forEachContact(count: { total = $0 }) { try add($0) }
            }
            try stream.finish()
            return ExitCode.success
        })

    static let stopOnError = Flag("--stop-on-error", help: "vCard: abort the whole import at the first malformed card.")
    static let getJSON = JSONOutput.report("the contact, " + JSONOutput.contactShape)
    static let listJSON = JSONOutput.report("an array of contacts, each " + JSONOutput.contactShape)
    static let importJSON = JSONOutput.report(
        "{\"added\": A, \"imported\": N, \"skipped\": S (malformed vCard cards), \"updated\": U}")

    /// What `import --json` prints: the same counts as its text line.
    struct ImportSummary: Encodable {
        var added: Int
        var imported: Int
        var skipped: Int
        var updated: Int
    }

    /// The options of `export`.
    enum ExportOptions {
        static let json = Flag(
            "--json",
            help:
                "The JSON export document (the default), indented as a file: {\"contacts\": [contact, …], \"format\": 1, \"kind\": \"contacts\"}."
        )
        static let vcard = Flag("--vcard", help: "vCard instead of JSON.")
        static let version = Option<VCardVersion>(
            "--version", value: "3.0|4.0", help: "vCard version (default 3.0).",
            convert: { text, name in
                guard let version = VCardVersion(rawValue: text) else {
                    throw UsageError("option '\(name)' expects 3.0 or 4.0, got '\(text)'")
                }
                return version
            })
        static let salvage = Flag(
            "--salvage", help: "Every readable contact of a damaged database (bad lines are listed on stderr).")
    }
}
