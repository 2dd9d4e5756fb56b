import CommandLineToolkit
import Foundation

/// The debugger command for a provider built from an Xcode project, as `enable` and `status` print
/// it: the executable lives in the App Group's caches, which nothing else names. gdb, because it
/// runs here as installed; the toolchain's own lldb needs a libpython Debian 12 does not ship
/// (docs/debugging.md).
enum ProviderDebugging {
    /// `gdb --args EXECUTABLE --foreground --app-group GROUP`: the provider serves from the debugger's
    /// terminal, in the App Group `contacts-host` uses, and `signal` drives it instead of launching one.
    static func command(executable: String, appGroup: String) -> String {
        ["gdb", "--args", executable, "--foreground", "--app-group", appGroup].map(ShellWord.quote)
            .joined(separator: " ")
    }

    /// The lines `enable` and `status` print for a provider built from an Xcode project (none for
    /// another provider): what it was built from, and how to debug it.
    static func lines(executable: String?, appGroup: String) -> [String] {
        guard let executable, let record = XcodeBuildRecord.read(forExecutable: executable) else { return [] }
        return [
            "built from: \(record.project) (target \(record.target)); an edit there is built by the next signal",
            "debug: \(command(executable: executable, appGroup: appGroup)), then 'run'; in another terminal: contacts-host --app-group \(ShellWord.quote(appGroup)) signal --wait",
        ]
    }
}
