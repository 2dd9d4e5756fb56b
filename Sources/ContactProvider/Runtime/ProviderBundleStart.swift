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
/// re-executes once, so that even this first run has its identity. Every later start, and every start
/// by the system, runs straight on (a debugger sees no exec).
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
        var environment = ProcessInfo.processInfo.environment
        environment[reexecMarker] = "1"
        let code = ProcessSpawn.exec("/proc/self/exe", arguments: CommandLine.arguments, environment: environment)
        // Only reached when exec failed: this run goes on without its identity, the next one has it.
        StandardError.write(
            "warning: could not restart in the new bundle \(ExecutableBundle.directory(forExecutable: executable)) (\(String(cString: strerror(code)))); Bundle.main.bundleIdentifier is nil until the next start\n"
        )
    }
}
