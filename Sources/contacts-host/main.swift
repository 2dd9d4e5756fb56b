// contacts-host: a thin shell over ContactsHostKit.
import CommandLineToolkit
import ContactsHostKit
import Foundation
import Glibc

signal(SIGPIPE, SIG_IGN)
// Before the first await: at the process limit the work pool cannot start, and would wait forever.
if let message = ThreadCapacity.failureMessage(program: "contacts-host") {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}
let code = await HostTool.main(arguments: Array(CommandLine.arguments.dropFirst()))
// Diagnostics for contacts-bench: this process's own peak memory (VmHWM; a spawned child's
// getrusage figure would include its parent's memory at spawn time).
if let path = ProcessInfo.processInfo.environment["CONTACTS_HOST_PEAK_RSS_FILE"],
    let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
{
    try? String(line).write(toFile: path, atomically: false, encoding: .utf8)
}
exit(code)
