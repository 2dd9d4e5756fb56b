import CommandLineToolkit
import ContactProviderSystem
import Foundation
import Glibc

/// Gives the starting provider its bundle (`Bundle.main.bundleIdentifier`, issue 40) before any
/// provider code runs.
///
/// The `BundleLocation` C module makes Foundation read `<executable>.appex/Info.plist` when that
/// directory exists as the process starts. The system makes it before it launches a provider, and
/// `contacts-host` when it builds one from an Xcode project; a provider started by hand from a fresh
/// build has none yet: this makes it (with ``ExecutableBundle/defaultInfo(executableName:)``) and
/// re-executes once, so that even this first run has its identity (not under a debugger, which would
/// stop at the exec: there the first run goes on without it). Every later start, and every start by the
/// system, runs straight on.
enum ProviderBundleStart {
    /// Set in the re-executed process, so a failed attempt can never loop.
    static let reexecMarker = "CONTACT_PROVIDER_BUNDLE_REEXEC"

    /// The executable as Foundation sees it: `<executable>.appex/<name>` when bundled.
    static var seenExecutable: String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    /// Whether `path` is an executable inside its bundle directory.
    static func isBundled(_ path: String) -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        return directory.hasSuffix(ExecutableBundle.extensionSuffix)
            && directory.dropLast(ExecutableBundle.extensionSuffix.count).hasSuffix(
                "/" + (path as NSString).lastPathComponent)
    }

    /// Whether a debugger (or strace) traces this process: `TracerPid` of /proc/self/status is not 0.
    static var isTraced: Bool {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return false }
        for line in status.split(separator: "\n") where line.hasPrefix("TracerPid:") {
            return line.dropFirst("TracerPid:".count).trimmingCharacters(in: .whitespaces) != "0"
        }
        return false
    }

    /// Returns when the process runs with its bundle, or when it cannot have one (then says why).
    static func ensure() {
        guard let executable = seenExecutable, !isBundled(executable) else { return }
        let made: Bool
        do {
            made = try ExecutableBundle.ensure(forExecutable: executable)
        } catch {
            StandardError.write("warning: \(error); Bundle.main.bundleIdentifier will be nil\n")
            return
        }
        guard made, ProcessInfo.processInfo.environment[reexecMarker] == nil else { return }
        // Under a debugger an exec would stop it or lose the process (issue 24): this first run goes on
        // without its identifier, and says so; the next start has it.
        guard !isTraced else {
            StandardError.write(
                "warning: made the bundle \(ExecutableBundle.directory(forExecutable: executable)) under a debugger; Bundle.main.bundleIdentifier is nil until the next start\n"
            )
            return
        }
        var environment = ProcessInfo.processInfo.environment
        environment[reexecMarker] = "1"
        let code = ProcessSpawn.exec("/proc/self/exe", arguments: CommandLine.arguments, environment: environment)
        // Only reached when exec failed: this run goes on without its identity, the next one has it.
        StandardError.write(
            "warning: could not restart in the new bundle \(ExecutableBundle.directory(forExecutable: executable)) (\(String(cString: strerror(code)))); Bundle.main.bundleIdentifier is nil until the next start\n"
        )
    }
}
