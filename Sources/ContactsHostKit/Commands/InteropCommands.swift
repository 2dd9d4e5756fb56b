import AppGroupStore
import CommandLineToolkit
import ContactProviderSystem
import ContactsInterop
import Foundation
import Glibc

/// Search (after the Contacts predicates) and change notification (after `CNContactStoreDidChange`).
enum InteropCommands {
    static var all: [Command] { [search, systemSearch, watch] }

    /// The options of `search` and `system search`: one query option, each a typed `ContactSearch.Query`.
    enum SearchOptions {
        static let name = Option<ContactSearch.Query>(
            "--name", value: "TEXT",
            help:
                "Every word is a prefix of a given, middle, family, nick or organization name (case and diacritics ignored).",
            convert: { text, option in .name(try nonBlank(text, option)) })
        static let email = Option<ContactSearch.Query>(
            "--email", value: "ADDRESS", help: "An e-mail address (case ignored).",
            convert: { text, option in .email(try nonBlank(text, option)) })
        static let phone = Option<ContactSearch.Query>(
            "--phone", value: "NUMBER", help: "A phone number (formatting ignored).",
            convert: { text, option in
                guard try nonBlank(text, option).contains(where: \.isNumber) else {
                    throw UsageError("option '\(option)' needs a number with at least one digit, got '\(text)'")
                }
                return .phone(text)
            })
        static let json = ContactCommands.listJSON
        static let all: [any OptionDeclaration] = [name, email, phone, json]

        private static func nonBlank(_ text: String, _ option: String) throws -> String {
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw UsageError("option '\(option)' needs a non-empty value")
            }
            return text
        }
    }

    static func query(_ arguments: ParsedArguments) throws -> ContactSearch.Query {
        let queries = try [SearchOptions.name, SearchOptions.email, SearchOptions.phone].compactMap {
            try arguments.value($0)
        }
        guard queries.count == 1 else { throw UsageError("give exactly one of --name, --email, --phone") }
        return queries[0]
    }

    static let search = Command(
        ["search"], summary: "Find the app's contacts by name, e-mail or phone number.",
        options: SearchOptions.all,
        examples: [
            "contacts-host search --name \"ada lov\"", "contacts-host search --phone \"+44 20 7946 0000\" --json",
        ],
        validate: { _ = try query($0) },
        run: { arguments, context in
            if let store = try DomainAppStore.other(context) {
                let found = ContactSearch.search(try store.contacts(), try query(arguments))
                ContactCommands.printList(found, json: arguments.has(SearchOptions.json), context: context)
                return ExitCode.success
            }
            // Streamed (issue 44): a name query reads the name index (contacts/name-index) and decodes
            // only its candidates; the others decode one contact at a time. Each match is written as found.
            var list = ContactCommands.ListStream(json: arguments.has(SearchOptions.json), output: context.output)
            try ContactSearch.forEachMatch(
                AppDatabase.searchable(appGroup: context.appGroup).store, try query(arguments)
            ) { try list.add($0) }
            list.finish()
            return ExitCode.success
        })

    static let systemSearch = Command(
        ["system", "search"], summary: "Find contacts the system received, by name, e-mail or phone number.",
        options: SearchOptions.all,
        examples: ["contacts-host system search --email ada@example.com"],
        validate: { _ = try query($0) },
        run: { arguments, context in
            let paths = try DomainPaths(appGroup: context.appGroup, domain: DomainManager.defaultDomainIdentifier)
            // A contact decoded at a time (issue 44); the system store has no name index, so every query scans.
            let query = try query(arguments)
            var list = ContactCommands.ListStream(json: arguments.has(SearchOptions.json), output: context.output)
            try SystemStore(directory: paths.systemStore).forEachContact {
                if ContactSearch.matches($0, query: query) { try list.add($0) }
            }
            list.finish()
            return ExitCode.success
        })

    static let watch = Command(
        ["watch"], summary: "Print one line per page or batch the system commits, until interrupted.",
        discussion: """
            The CNContactStoreDidChange analogue. The watcher blocks on its own FIFO in run/<domain>/watchers/;
            the system rings it after each commit, and the watcher reads what changed from the system store.
            """,
        options: [watchJSON],
        examples: ["contacts-host watch", "contacts-host watch --json"],
        exitCodes: [
            ExitCodeHelp(0, "interrupted (Ctrl-C)"), ExitCodeHelp(1, "the watch could not start"),
            ExitCodeHelp(2, "usage error: nothing was run"),
        ],
        run: { arguments, context in try runWatch(json: arguments.has(watchJSON), context: context) })

    static let watchJSON = JSONOutput.stream(
        per: "change",
        "{\"commits\"? (compacted only), \"deleted\": [ID], \"kind\": \"commit\"|\"compacted\"|\"reset\", \"seq\"?,"
            + " \"systemCount\", \"updated\": [ID]}")

    /// One line of `watch --json`.
    struct ChangeLine: Codable {
        var kind: String
        var seq: Int?
        /// `compacted` lines: how many commits were folded into a snapshot before the watcher read them.
        var commits: Int?
        var updated: [String]
        var deleted: [String]
        var systemCount: Int
    }

    static func runWatch(json: Bool, context: CommandContext) throws -> Int32 {
        let paths = try DomainPaths(appGroup: context.appGroup, domain: DomainManager.defaultDomainIdentifier)
        let (path, fd) = try WatchChannel.open(paths)
        WatchCleanup.install(path)
        defer {
            close(fd)
            unlink(path)
        }
        let store = SystemStore(directory: paths.systemStore)
        var state = try store.load()
        context.output.err("watching \(paths.systemStore) (Ctrl-C to stop)")
        var buffer = BoundedLineBuffer()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StoreError.io(path: path, operation: "read", errno: errno)
            }
            let items = chunk.withUnsafeBytes { buffer.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            for item in items {
                // The doorbell only says "look"; what changed is read from the store below.
                guard case .line(let line) = item, (try? JSONDecoder().decode(WatchEvent.self, from: line)) != nil
                else {
                    context.output.err("ignored a malformed message on \(path)")
                    continue
                }
                let before = state
                try store.refresh(&state)
                var lines: [ChangeLine] = []
                var since = before.headSeq
                var afterGap = false
                if state.generation != before.generation {
                    if before.generation.isEmpty || state.previousGeneration == nil {
                        // The store was replaced (reset, disable, expiry, or created): say so, then report
                        // what the new generation already holds.
                        if !before.generation.isEmpty {
                            lines.append(ChangeLine(kind: "reset", seq: nil, updated: [], deleted: [], systemCount: 0))
                        }
                    } else if state.baseSeq > before.headSeq {
                        // Compacted before we read them: the commits up to baseSeq exist only as a snapshot
                        // now. Never drop them silently (seqs are global and contiguous, so the count is exact).
                        let folded = try store.readSnapshotHeader()
                        lines.append(
                            ChangeLine(
                                kind: "compacted", seq: state.baseSeq, commits: state.baseSeq - before.headSeq,
                                updated: [],
                                deleted: [],
                                systemCount: folded?.generation == state.generation ? folded!.count : state.count))
                        afterGap = true
                    }
                    since = state.baseSeq
                }
                if case .changes(let entries, _, _) = try store.changes(after: since, in: state.generation, limit: .max)
                {
                    // Everything committed since the last line (doorbells may coalesce); each line gets
                    // the count after its own commit.
                    let committed = entries.filter { $0.seq <= state.headSeq && ($0.upsert != nil || $0.delete != nil) }
                    // After a compaction gap the contacts at its end are not known one by one: lines give the current count.
                    var present: Set<String>? =
                        committed.count > 1 && !afterGap
                        ? Set(since == before.headSeq ? before.records.keys : [String: ContactRecord]().keys) : nil
                    for entry in committed {
                        var count = state.count
                        if var ids = present {
                            for record in entry.upsert ?? [] { ids.insert(record.identifier) }
                            for identifier in entry.delete ?? [] { ids.remove(identifier) }
                            count = ids.count
                            present = ids
                        }
                        lines.append(
                            ChangeLine(
                                kind: "commit", seq: entry.seq, updated: entry.upsert?.map(\.identifier) ?? [],
                                deleted: entry.delete ?? [], systemCount: count))
                    }
                }
                for change in lines {
                    context.output.out(json ? try ContactJSON.report(change) : describe(change))
                }
            }
        }
    }

    /// One human-readable line for a change.
    static func describe(_ change: ChangeLine) -> String {
        func list(_ ids: [String]) -> String {
            ids.isEmpty ? "" : " (\(ids.prefix(5).joined(separator: ", "))\(ids.count > 5 ? ", …" : ""))"
        }
        if change.kind == "reset" { return "reset: the system store was emptied" }
        if change.kind == "compacted" {
            let count = change.commits ?? 0
            return "\(count) commit\(count == 1 ? "" : "s") compacted before they were read (up to seq "
                + "\(change.seq.map(String.init) ?? "?")); \(change.systemCount) in the system store"
        }
        return "commit \(change.seq.map(String.init) ?? "?"): \(change.updated.count) updated\(list(change.updated)), "
            + "\(change.deleted.count) deleted\(list(change.deleted)); \(change.systemCount) in the system store"
    }
}

/// Removes the watcher's FIFO when the watch is interrupted.
enum WatchCleanup {
    nonisolated(unsafe) private static var path: [CChar] = []
    // Written once before the handlers are installed; read only by them.

    static func install(_ fifo: String) {
        path = Array(fifo.utf8CString)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number) { code in
                WatchCleanup.path.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
                _exit(128 + code)
            }
        }
        HostInterrupt.unblockOnThisThread()
    }
}
