import CommandLineToolkit
import Foundation
import Glibc

/// The commands `contacts-host` hands to `contacts-host-conformance`, the executable beside it.
///
/// `conformance` and `demo carddav` run the conformance kit, and the kit links FoundationNetworking:
/// its CardDAV backend uses `URLSession`, and the Apple-shaped modules it runs providers with
/// re-export it. Loading that library, libcurl and the 30 libraries behind them took 7 ms of
/// `add`'s 16 on a quiet machine (`docs/startup-profile.md`), in every command. So `contacts-host`
/// links none of it: it declares these two by name and summary (its help and "did you mean" list
/// them), and runs `contacts-host-conformance` in its place, with the same arguments, for them, for
/// their help and for the completion scripts. That executable declares the whole commands, with
/// the summaries below, so both print the same help.
///
/// `swift build` and `swift test` build both executables; `swift run contacts-host` builds only the
/// first (a target dependency would link the other's libraries, FoundationNetworking with them). So
/// when `contacts-host` runs from a package's `.build`, it first builds `contacts-host-conformance`
/// if that is missing or older than the package's sources (``ForwardedBuild``), unless SwiftPM
/// itself runs `contacts-host` (a test): that holds the package's build lock, and has just built both.
package enum ForwardedCommands {
    /// The executable that runs them, in the same directory as `contacts-host`.
    package static let executable = "contacts-host-conformance"

    /// `contacts-host conformance`.
    package static let conformance = Command.forwarded(
        ["conformance"], summary: "Check a provider executable against the numbered conformance rules.",
        to: executable)

    /// `contacts-host demo carddav`.
    package static let demoCardDAV = Command.forwarded(
        ["demo", "carddav"], summary: "Run the demo against a CardDAV server: add, edit, delete on the server, sync.",
        to: executable)

    /// The forwarded commands that take `--json` (their options are declared in the other
    /// executable): `JSONOutput`'s refusal names them too. `ForwardedCommandsTests` checks this
    /// against their declarations.
    package static let namesTakingJSON: [[String]] = [["conformance"]]

    /// Replaces this process with `executable` (beside this one) run with `arguments`; returns only
    /// when that cannot be done, after saying why on `output`.
    ///
    /// Only a process whose output is its own standard output forwards: in process (tests, the
    /// bench) the commands run from `HostTool.allCommands`, which has their code.
    static func run(_ executable: String, arguments: [String], output: CommandOutput) -> Int32 {
        let executablePath = PackageBuild.runningExecutable
        let directory = (executablePath as NSString).deletingLastPathComponent
        let path = directory + "/" + executable
        guard output is StandardOutput else {
            output.err("error: this command runs in \(executable); in process, run HostTool.allCommands")
            return ExitCode.failure
        }
        if let tree = PackageBuild.tree(of: executablePath), ForwardedBuild.isStale(path, root: tree.root) {
            do { try ForwardedBuild.refresh(executable, at: path, in: tree, output: output) } catch {
                output.err("error: \(error)")
                return ExitCode.failure
            }
        }
        guard access(path, X_OK) == 0 else {
            output.err(
                "error: this command runs in \(executable), which is not in \(directory): build it with 'swift build --product \(executable)'"
            )
            return ExitCode.failure
        }
        fflush(nil)  // every stdio stream: what `print` buffered must not be lost to exec
        let code = ProcessSpawn.exec(path, arguments: [path] + arguments)
        output.err("error: cannot run \(path): \(String(cString: strerror(code)))")
        return ExitCode.failure
    }
}
