import AppGroupStore
import Foundation

/// What a crash state of one command must show, in the terms the real programs print: the app's
/// contacts (and the system's, and whether the domain is enabled) before and after the command.
package struct CrashExpectation: Sendable {
    /// The app's contacts acknowledged before the command, by identifier.
    package var before: [String: ContactRecord]
    /// The app's contacts once the command has exited 0.
    package var after: [String: ContactRecord]
    /// Whether the command is all or nothing (an add, an update, a multi-id delete, a reset): a
    /// crash state then holds exactly the contacts before or exactly the contacts after.
    package var atomic: Bool
    /// Whether the domain was enabled before and after (nil: no domain involved, nothing synced).
    package var enabled: (before: Bool, after: Bool)?
    /// The system store's contacts before and after (nil: not compared before the new sync).
    package var system: (before: [String: ContactRecord], after: [String: ContactRecord])?
    /// For an import: the identifiers in file order. The importer promises a prefix of whole
    /// contacts (`AppDatabase.upsert`), so the new ones present must be the first of these.
    package var importOrder: [String]?

    /// An expectation from the contacts before and after.
    package init(
        before: [String: ContactRecord], after: [String: ContactRecord], atomic: Bool,
        enabled: (before: Bool, after: Bool)? = nil,
        system: (before: [String: ContactRecord], after: [String: ContactRecord])? = nil
    ) {
        self.before = before
        self.after = after
        self.atomic = atomic
        self.enabled = enabled
        self.system = system
    }
}

/// Opens a crash state with the built `contacts-host` (and, for a domain, the provider it launches)
/// and says what is wrong with it: a lost or foreign contact, a half-applied all-or-nothing
/// command, a store that does not open even after `doctor --repair`, a `status` that fails, a sync
/// that does not converge.
package enum CrashStateCheck {
    /// The problems of `state` against `expectation`, each a sentence (empty: the state is good).
    ///
    /// The state is written into a fresh temporary App Group, which is removed (and any provider
    /// started in it stopped) before this returns.
    package static func problems(of state: CrashState, expecting expectation: CrashExpectation) throws -> [String] {
        try withTemporaryAppGroup { holder in
            let appGroup = holder.path + "/ag"
            try state.tree.write(to: appGroup)
            defer { TemporaryAppGroup.stopProviders(inAppGroup: appGroup) }
            var environment = holder.environment
            environment[AppGroup.environmentVariable] = appGroup
            return try problems(appGroup: appGroup, environment: environment, state, expectation)
        }
    }

    private static func problems(
        appGroup: String, environment: [String: String], _ state: CrashState, _ expectation: CrashExpectation
    ) throws -> [String] {
        func host(_ arguments: [String]) throws -> ProcessResult {
            try HostRunner.process.run(arguments, environment: environment)
        }
        var problems: [String] = []
        var list = try host(["list", "--json"])
        var status = try host(["status"])
        var repaired = false
        if list.exitCode != 0 || status.exitCode != 0 {
            // Allowed: a store that refuses to open, if `doctor --repair` restores every acknowledged contact.
            repaired = true
            let repair = try host(["doctor", "--repair"])
            list = try host(["list", "--json"])
            status = try host(["status"])
            guard list.exitCode == 0 else {
                return [
                    "the app database does not open even after doctor --repair (\(oneLine(repair))): \(oneLine(list))"
                ]
            }
            if status.exitCode != 0 {
                problems.append("status fails even after doctor --repair (\(oneLine(repair))): \(oneLine(status))")
            }
        }
        let contacts = try byIdentifier(list.stdout, what: "list --json")
        problems += contactProblems(contacts, expectation, requiresAfter: state.requiresCommandResult)

        // Whether the domain is enabled is read from status, so a failed status ends the check here.
        guard let enabled = expectation.enabled, status.exitCode == 0 else { return problems }
        let isEnabled = status.stdout.contains("(enabled)")
        if isEnabled != enabled.before && isEnabled != enabled.after {
            problems.append("the domain is \(isEnabled ? "enabled" : "disabled"), as it was neither before nor after")
        } else if state.requiresCommandResult && isEnabled != enabled.after {
            problems.append(
                "the command was acknowledged (exit 0), but the domain reads back as \(isEnabled ? "enabled" : "disabled")"
            )
        }
        guard isEnabled else { return problems }
        if let system = expectation.system, !repaired {
            // The system's copy may be behind (a sync that restarts a content enumeration empties it
            // first; the new sync below must then bring it back), but never hold a value that was not
            // there before or after, and after the last operation it must be what the command left.
            let systemList = try host(["system", "list", "--json"])
            if systemList.exitCode == 0 {
                let held = try byIdentifier(systemList.stdout, what: "system list --json")
                for (id, value) in held.sorted(by: { $0.key < $1.key })
                where value != system.before[id] && value != system.after[id] {
                    problems.append(
                        "system store: contact \(id) is \(shown(value)), neither its value before "
                            + "(\(shown(system.before[id]))) nor after (\(shown(system.after[id])))")
                }
                if state.requiresCommandResult, held != system.after {
                    let missing = Set(system.after.keys).union(held.keys).filter { held[$0] != system.after[$0] }
                    problems.append(
                        "the command was acknowledged (exit 0), but the system store lacks \(missing.count) of its "
                            + "contacts, e.g. \(missing.sorted().prefix(3).joined(separator: ", "))")
                }
            } else {
                // Allowed before the last operation: doctor --repair drops a damaged system store and the
                // next sync fills it again (checked below).
                if state.requiresCommandResult {
                    problems.append(
                        "the command was acknowledged (exit 0), but the system store does not open: \(oneLine(systemList))"
                    )
                }
                let repair = try host(["doctor", "--repair"])
                let again = try host(["system", "list", "--json"])
                if again.exitCode != 0 {
                    return problems + [
                        "the system store does not open even after doctor --repair (\(oneLine(repair))): \(oneLine(again))"
                    ]
                }
            }
        }
        // A new sync must converge: the system store ends equal to the app database.
        let sync = try host(["signal", "--wait"])
        guard sync.exitCode == 0 else { return problems + ["a new sync fails: \(oneLine(sync))"] }
        // A sync never writes the app database: it is still what `list` printed above.
        let appAfterSync = contacts
        let systemAfterSync = try host(["system", "list", "--json"])
        guard systemAfterSync.exitCode == 0 else {
            return problems + ["system list fails after a new sync: \(oneLine(systemAfterSync))"]
        }
        let systemContacts = try byIdentifier(systemAfterSync.stdout, what: "system list --json")
        if systemContacts != appAfterSync {
            let differing = Set(systemContacts.keys).union(appAfterSync.keys).filter {
                systemContacts[$0] != appAfterSync[$0]
            }
            problems.append(
                "a new sync does not converge: \(differing.count) contacts differ between the system store and "
                    + "the app database, e.g. \(differing.sorted().prefix(3).joined(separator: ", "))")
        }
        return problems
    }

    /// Lost, changed or foreign contacts; a half-applied atomic command; a missing acknowledged change.
    private static func contactProblems(
        _ contacts: [String: ContactRecord], _ expectation: CrashExpectation, requiresAfter: Bool
    ) -> [String] {
        var problems: [String] = []
        let before = expectation.before
        let after = expectation.after
        var wrong: [String] = []
        for id in Set(contacts.keys).union(before.keys).union(after.keys).sorted() {
            let value = contacts[id]
            guard value != before[id] && value != after[id] else { continue }
            if value == nil {
                wrong.append("contact \(id) is lost (before: \(shown(before[id])), after: \(shown(after[id])))")
            } else if before[id] == nil && after[id] == nil {
                wrong.append("contact \(id) appeared from nowhere: \(shown(value))")
            } else {
                wrong.append(
                    "contact \(id) is \(shown(value)), neither its value before (\(shown(before[id]))) "
                        + "nor after (\(shown(after[id])))")
            }
        }
        if !wrong.isEmpty {
            let more = wrong.count > 5 ? " (and \(wrong.count - 5) more)" : ""
            problems.append(
                "\(wrong.count) contacts wrong of \(contacts.count) read: "
                    + wrong.prefix(5).joined(separator: "; ") + more)
        }
        if let order = expectation.importOrder {
            let arrived = order.map { before[$0] == nil && contacts[$0] != nil }
            if let gap = arrived.firstIndex(of: false), let later = arrived[gap...].firstIndex(of: true) {
                problems.append(
                    "the imported contacts are not a prefix of the file: \(order[gap]) (number \(gap + 1)) is missing "
                        + "but \(order[later]) (number \(later + 1)) is there")
            }
        }
        if requiresAfter, contacts != after, wrong.isEmpty {
            let missing = Set(after.keys).union(contacts.keys).filter { contacts[$0] != after[$0] }.count
            problems.append(
                "the command was acknowledged (exit 0), but \(missing) of its changes are missing from the "
                    + "database")
        } else if expectation.atomic, contacts != before, contacts != after, wrong.isEmpty {
            problems.append("the command is all or nothing, but only part of it is in the database")
        }
        return problems
    }

    /// A contact list printed with `--json`, by identifier.
    package static func byIdentifier(_ json: String, what: String) throws -> [String: ContactRecord] {
        let records = try CLIHarness.contacts(json)
        return Dictionary(records.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private static func shown(_ record: ContactRecord?) -> String {
        guard let record else { return "absent" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = (try? encoder.encode(record)).map { String(decoding: $0, as: UTF8.self) } ?? "\(record)"
        return text.count > 100 ? text.prefix(100) + "…" : text
    }

    private static func oneLine(_ result: ProcessResult) -> String {
        let said = (result.stderr.isEmpty ? result.stdout : result.stderr)
            .split(separator: "\n").prefix(3).joined(separator: " | ")
        return "exit \(result.exitCode): \(said.prefix(300))"
    }
}
