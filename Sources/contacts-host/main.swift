// contacts-host: a thin shell over ContactsHostKit.
import ContactsHostKit
import Foundation

#if canImport(Glibc)
import Glibc
#endif

signal(SIGPIPE, SIG_IGN)
let code = await HostTool.main(arguments: Array(CommandLine.arguments.dropFirst()))
exit(code)
