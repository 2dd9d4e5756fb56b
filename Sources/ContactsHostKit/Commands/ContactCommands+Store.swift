import AppGroupStore
import CommandLineToolkit
import ContactsInterop
import Foundation

extension ContactCommands {
    /// `import` into a store other than the App Group database (`enable --backend`): the whole file
    /// is decoded first (a malformed JSON file writes nothing, as for the database), then written
    /// through the store's backend.
    static func importIntoStore(
        _ data: Data, source: String, store: DomainAppStore, arguments: ParsedArguments, context: CommandContext
    ) throws -> Int32 {
        var skipped = 0
        let records: [ContactRecord]
        if ContactImport.isVCard(data, path: source) {
            let decoded = VCard.decode(data: data, stopOnError: arguments.has(stopOnError))
            for problem in decoded.problems { context.output.err("\(source):\(problem.line): \(problem.message)") }
            if arguments.has(stopOnError), let first = decoded.errors.first {
                throw CommandFailure("\(source):\(first.line): import aborted (--stop-on-error); nothing was written")
            }
            skipped = decoded.errors.count
            records = decoded.contacts
        } else {
            records = try ContactImport.decode(data, source: source)
        }
        let ticker = ProgressTicker(
            output: context.output, prefix: "import", phase: "writing 0/\(records.count) contacts")
        defer { ticker.stop() }
        let result = try store.upsert(records) { done in ticker.set("writing \(done)/\(records.count) contacts") }
        ticker.stop()
        if arguments.has(importJSON) {
            let summary = ImportSummary(
                added: result.added, imported: records.count, skipped: skipped, updated: result.updated)
            context.output.out(try ContactJSON.report(summary))
        } else {
            context.output.out(
                "imported \(counted(records.count, "contact")) (\(result.added) added, \(result.updated) updated, \(skipped) skipped) into \(store.kind)"
            )
        }
        return ExitCode.success
    }
}
