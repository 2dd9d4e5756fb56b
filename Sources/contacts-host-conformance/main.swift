// contacts-host-conformance: the `contacts-host` commands that run the conformance kit
// (`conformance`, `demo carddav`), which `contacts-host` hands to it (ForwardedCommands); it runs
// every other command as well, so its help and completion scripts are the whole tool's.
import ContactsHostConformance
import ContactsHostKit

HostTool.startProcess(program: "contacts-host")
// Contact commands on a domain whose store is a CardDAV address book run here (they need networking).
HostTool.registerNetworkedAppStores()
let code = await HostTool.main(arguments: Array(CommandLine.arguments.dropFirst()), commands: HostTool.allCommands)
HostTool.endProcess(code)
