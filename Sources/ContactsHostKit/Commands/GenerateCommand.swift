import AppGroupStore
import CommandLineToolkit
import ContactsInterop
import Foundation

/// `contacts-host generate N [--seed S]`: sample data for trying things at scale.
enum GenerateCommand {
    static let seedOption = Option<UInt64>(
        "--seed", value: "S", help: "Seed of the generated data (a non-negative integer).",
        convert: ArgumentValue.nonNegativeInteger)

    static let jsonFlag = JSONOutput.report("{\"added\": A, \"generated\": N, \"seed\": S, \"updated\": U}")

    /// What `generate --json` prints.
    struct Summary: Encodable {
        var added: Int
        var generated: Int
        var seed: UInt64
        var updated: Int
    }

    static let command = Command(
        ["generate"],
        summary: "Add N realistic sample contacts (every field shape); the same seed gives the same contacts.",
        discussion: """
            Identifiers are sample-<seed>-<index>, so running again with the same seed replaces those contacts
            instead of adding more; another seed adds others. Without --seed a random seed is used and printed.
            Written like import: grouped commits, progress on stderr after one second.
            """,
        options: [seedOption, jsonFlag],
        positional: PositionalSpec("N", minimum: 1, maximum: 1),
        examples: [
            "contacts-host generate 1000 --seed 42", "contacts-host generate 50000 && contacts-host signal --wait",
        ],
        environment: ["CONTACTS_HOST_PROGRESS"],
        validate: { arguments in
            guard let count = Int(arguments.positionals[0]), count > 0 else {
                throw UsageError("N expects a positive integer, got '\(arguments.positionals[0])'")
            }
        },
        run: { arguments, context in
            let count = Int(arguments.positionals[0])!
            let seed = try arguments.value(seedOption) ?? UInt64.random(in: 0...999_999)
            let ticker = ProgressTicker(output: context.output, prefix: "generate", phase: "making \(count) contacts")
            defer { ticker.stop() }
            let records = SampleContacts.make(count, seed: seed)
            let result: (added: Int, updated: Int)
            if let store = try DomainAppStore.other(context) {
                result = try store.upsert(records) { done in ticker.set("writing \(done)/\(count) contacts") }
            } else {
                let database = AppDatabase.searchable(appGroup: context.appGroup)
                result = try database.upsert(records) { done in ticker.set("writing \(done)/\(count) contacts") }
                ticker.set("compacting the database (the \(count) contacts are committed)")
                try database.compactIfNeeded()
            }
            ticker.stop()
            if arguments.has(jsonFlag) {
                let summary = Summary(
                    added: result.added, generated: records.count, seed: seed, updated: result.updated)
                context.output.out(try ContactJSON.report(summary))
                return ExitCode.success
            }
            context.output.out(
                "generated \(counted(records.count, "contact")) with seed \(seed) (\(result.added) added, \(result.updated) updated)"
            )
            return ExitCode.success
        })
}
