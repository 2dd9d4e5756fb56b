// contacts-host: a thin shell over ContactsHostKit. It links neither the conformance kit nor the
// Apple-shaped modules (they load FoundationNetworking): `conformance` and `demo carddav` run in
// contacts-host-conformance, beside it (ForwardedCommands).
import ContactsHostKit

HostTool.startProcess(program: "contacts-host")
let code = HostTool.mainOnThisThread(arguments: Array(CommandLine.arguments.dropFirst()), commands: HostTool.commands)
HostTool.endProcess(code)
