import ContactsHostKit

extension HostTool {
    /// Every command with its code: ``HostTool/commands`` with each forwarded one replaced by its
    /// declaration here. `contacts-host-conformance` runs these, and so do tests and the bench
    /// in process (`HostTool.main(arguments:output:commands:)`).
    package static var allCommands: [Command] {
        let implemented = [ConformanceCommand.command, CardDAVDemoCommand.command]
        return commands.map { command in
            guard command.forwardedTo != nil else { return command }
            guard let implementation = implemented.first(where: { $0.name == command.name }) else {
                preconditionFailure(
                    "no implementation of the forwarded command '\(command.name.joined(separator: " "))'")
            }
            return implementation
        }
    }

    /// Lets this process's contact commands reach a store on a server (`enable --backend carddav:URL`):
    /// `contacts-host-conformance` calls it at start, and so may tests that run ``allCommands`` in process.
    package static func registerNetworkedAppStores() {
        ServerCardDAVStore.register()
    }
}
