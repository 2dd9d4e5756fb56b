import AppGroupStore
import CommandLineToolkit
import Foundation

/// `contacts-host device …`: the device's own contacts, groups and access setting, as the user
/// would set them up in Contacts and Settings, so an app's test starts from the scene it needs.
/// Apps read and write the same store through `CNContactStore` (the local container).
enum DeviceCommands {
    static var all: [Command] { [list, add, delete, groups, groupAdd, groupDelete, groupMembers, authorization] }

    static func device(_ context: CommandContext) -> DeviceContacts {
        DeviceContacts(appGroup: context.appGroup)
    }

    static let transactionAuthor = Option<String>(
        "--transaction-author", value: "NAME",
        help:
            "Record NAME as the change's author (CNSaveRequest.transactionAuthor): a change history fetch excluding NAME leaves it out."
    )

    /// Saves `changes` with the author given with `--transaction-author`, if any.
    static func save(_ changes: DeviceChangeSet, _ arguments: ParsedArguments, _ context: CommandContext) throws {
        var changes = changes
        changes.author = try arguments.value(transactionAuthor)
        try device(context).save(changes)
    }

    static let list = Command(
        ["device", "list"], summary: "List the device's own contacts (the local container apps write to).",
        discussion: """
            The user's own contacts, beside every provider's read-only ones (those are `system list`). Apps see
            them through CNContactStore as the local, default container; their identifiers are as they were added.
            """,
        options: [ContactCommands.listJSON],
        examples: ["contacts-host device list", "contacts-host device list --json"],
        run: { arguments, context in
            let records = try device(context).contents().contacts
            ContactCommands.printList(records, json: arguments.has(ContactCommands.listJSON), context: context)
            return ExitCode.success
        })

    static let add = Command(
        ["device", "add"], summary: "Add a contact to the device's own contacts; prints its identifier.",
        discussion: "Without --id a new UUID is assigned. Apps see the contact at once (one durable journal entry).",
        options: ContactCommands.fieldOptions + [ContactFieldOptions.identifier, transactionAuthor],
        examples: ["contacts-host device add --given-name Grace --family-name Hopper --email work=grace@example.com"],
        validate: { arguments in
            typealias Field = ContactFieldOptions
            guard arguments.has(Field.givenName) || arguments.has(Field.familyName) || arguments.has(Field.organization)
            else {
                throw UsageError("a contact needs --given-name, --family-name or --organization")
            }
        },
        run: { arguments, context in
            var record = ContactRecord(
                identifier: try arguments.value(ContactFieldOptions.identifier) ?? UniqueIdentifier.make())
            try ContactCommands.apply(arguments, to: &record)
            var changes = DeviceChangeSet()
            changes.addedContacts = [record]
            try save(changes, arguments, context)
            context.output.out(record.identifier)
            return ExitCode.success
        })

    static let delete = Command(
        ["device", "delete"],
        summary: "Delete contacts of the device's own (all or nothing: an unknown ID deletes none).",
        discussion: "A deleted contact leaves its groups too.",
        options: [transactionAuthor], positional: PositionalSpec("ID", minimum: 1, maximum: .max),
        examples: ["contacts-host device delete 1F0C1B6E-3A4D-4F2B-9C61-0D2E5A7B8C9F"],
        run: { arguments, context in
            var changes = DeviceChangeSet()
            changes.deletedContacts = arguments.positionals
            try save(changes, arguments, context)
            return ExitCode.success
        })

    static let groups = Command(
        ["device", "groups"], summary: "List the device's groups: identifier, name and members, one group a line.",
        examples: ["contacts-host device groups"],
        run: { _, context in
            for group in try device(context).contents().groups {
                context.output.out(
                    "\(group.identifier)\t\(group.name)\t"
                        + (group.members.isEmpty ? "(no members)" : group.members.joined(separator: " ")))
            }
            return ExitCode.success
        })

    static let groupIdentifier = Option<String>(
        "--id", value: "ID", help: "Use this identifier for the group (must not exist yet).",
        convert: { text, name in
            do { try IdentifierRules.validate(text) } catch { throw UsageError("option '\(name)': \(error)") }
            return text
        })
    static let member = Option<String>(
        "--member", value: "ID", repeatable: true, help: "A contact of the device's own to put in the group.")

    static let groupAdd = Command(
        ["device", "group", "add"], summary: "Add a group (CNGroup) to the device; prints its identifier.",
        discussion: "Without --id a new UUID is assigned. Each --member must be a contact of the device's own.",
        options: [groupIdentifier, member, transactionAuthor],
        positional: PositionalSpec("NAME", minimum: 1, maximum: 1),
        examples: ["contacts-host device group add Family --member 1F0C1B6E-3A4D-4F2B-9C61-0D2E5A7B8C9F"],
        run: { arguments, context in
            let identifier = try arguments.value(groupIdentifier) ?? UniqueIdentifier.make()
            var changes = DeviceChangeSet()
            changes.addedGroups = [DeviceGroup(identifier: identifier, name: arguments.positionals[0])]
            changes.addedMembers = try arguments.values(member).map { ($0, identifier) }
            try save(changes, arguments, context)
            context.output.out(identifier)
            return ExitCode.success
        })

    static let groupDelete = Command(
        ["device", "group", "delete"], summary: "Delete groups of the device (their members stay).",
        options: [transactionAuthor], positional: PositionalSpec("ID", minimum: 1, maximum: .max),
        examples: ["contacts-host device group delete 5D2A9E40-0C71-4B8E-9F3A-6E1B2C3D4E5F"],
        run: { arguments, context in
            var changes = DeviceChangeSet()
            changes.deletedGroups = arguments.positionals
            try save(changes, arguments, context)
            return ExitCode.success
        })

    static let addMember = Option<String>(
        "--add", value: "ID", repeatable: true, help: "A contact of the device's own to put in the group.")
    static let removeMember = Option<String>(
        "--remove", value: "ID", repeatable: true, help: "A contact to take out of the group.")

    static let groupMembers = Command(
        ["device", "group", "members"],
        summary: "Put contacts in a group and take them out (CNSaveRequest.addMember / removeMember).",
        discussion: "Without --add or --remove it prints the group's members, one a line.",
        options: [addMember, removeMember, transactionAuthor],
        positional: PositionalSpec("GROUP", minimum: 1, maximum: 1),
        examples: [
            "contacts-host device group members 5D2A9E40-0C71-4B8E-9F3A-6E1B2C3D4E5F --add 1F0C1B6E-3A4D-4F2B-9C61-0D2E5A7B8C9F"
        ],
        run: { arguments, context in
            let group = arguments.positionals[0]
            var changes = DeviceChangeSet()
            changes.addedMembers = try arguments.values(addMember).map { ($0, group) }
            changes.removedMembers = try arguments.values(removeMember).map { ($0, group) }
            if changes.isEmpty {
                guard let found = try device(context).contents().groups.first(where: { $0.identifier == group })
                else { throw DeviceContactsError.noSuchGroup(group) }
                for identifier in found.members { context.output.out(identifier) }
                return ExitCode.success
            }
            try save(changes, arguments, context)
            return ExitCode.success
        })

    static let grant = Option<String>(
        "--grant", value: "ID", repeatable: true,
        help: "With limited: a contact the user shares with the app (its CNContact identifier).")
    static let answer = Option<DeviceAuthorization.Answer>(
        "--answer", value: "allow|deny",
        help: "With not-determined: what the user answers when the app calls requestAccess (default allow).",
        convert: { text, name in
            guard let answer = DeviceAuthorization.Answer(rawValue: text) else {
                throw UsageError("option '\(name)' takes allow or deny, got '\(text)'")
            }
            return answer
        })
    static let statusNames = DeviceAuthorization.Status.allCases.map(\.rawValue).joined(separator: "|")

    static let authorization = Command(
        ["device", "authorization"],
        summary: "Show or set the app's access to the device's contacts (CNContactStore.authorizationStatus).",
        discussion: """
            Without STATUS it prints the setting. STATUS is one of \(statusNames). Without a setting access is
            authorized. denied, restricted and not-determined make every read throw CNError.authorizationDenied
            until requestAccess is answered (not-determined: with --answer); limited shows the app only the
            contacts given with --grant, and those it adds itself.
            """,
        options: [grant, answer], positional: PositionalSpec("STATUS", minimum: 0, maximum: 1),
        examples: [
            "contacts-host device authorization denied",
            "contacts-host device authorization limited --grant 1F0C1B6E-3A4D-4F2B-9C61-0D2E5A7B8C9F",
            "contacts-host device authorization not-determined --answer deny",
        ],
        validate: { arguments in
            guard let name = arguments.positionals.first else { return }
            guard let status = DeviceAuthorization.Status(rawValue: name) else {
                throw UsageError("unknown status '\(name)': use one of \(statusNames)")
            }
            if arguments.has(grant.name), status != .limited { throw UsageError("--grant goes with limited") }
            if arguments.has(answer.name), status != .notDetermined {
                throw UsageError("--answer goes with not-determined")
            }
        },
        run: { arguments, context in
            guard let name = arguments.positionals.first, let status = DeviceAuthorization.Status(rawValue: name) else {
                let setting = try DeviceAuthorization.read(in: context.appGroup)
                var line = setting.status.rawValue
                if setting.status == .limited { line += " (granted: \(setting.granted.joined(separator: " ")))" }
                if setting.status == .notDetermined { line += " (answer: \(setting.answer.rawValue))" }
                context.output.out(line)
                return ExitCode.success
            }
            let setting = DeviceAuthorization(
                status: status, granted: try arguments.values(grant), answer: try arguments.value(answer) ?? .allow)
            try setting.write(in: context.appGroup)
            return ExitCode.success
        })
}
