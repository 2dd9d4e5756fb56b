import AppGroupStore
import CommandLineToolkit
import ContactProviderSystem
import Foundation
import Glibc

extension ContactProviderExtension {
    /// The extension's entry point, supplied by the framework: `@main` on the conforming type
    /// is all an extension needs, exactly as on iOS.
    ///
    /// It reads `--app-group` / `CONTACT_PROVIDER_APP_GROUP`, creates the type with `init()`,
    /// configures it for the domain, and serves the system's requests until it is told to stop
    /// or stays idle. `--foreground` logs every request and observer call; `--help` explains.
    ///
    /// It is synchronous on purpose: an `async` entry point runs on the concurrency pool's threads,
    /// so at the process limit (no thread can be started) it never began, and the dispatch library
    /// retried forever (issue 31 item 11). Here the main thread checks first, then starts the pool.
    public static func main() {
        // At the process limit the work pool cannot start and would retry forever: say so and exit.
        ThreadCapacity.exitIfNoThreads(
            program: (CommandLine.arguments.first as NSString?)?.lastPathComponent ?? "provider")
        // Bytes that are not UTF-8 would be decoded with U+FFFD and name another App Group.
        if let problem = RawCommandLine.nonUTF8Problem(variables: [AppGroup.environmentVariable]) {
            StandardError.write("error: \(problem)\n")
            exit(ExitCode.usage)
        }
        let arguments = Array(CommandLine.arguments.dropFirst())
        let options: RuntimeOptions
        do {
            guard
                let parsed = try RuntimeOptions.parse(arguments, defaultDomain: DefaultContactProviderDomain.identifier)
            else {
                print(RuntimeOptions.usage)
                exit(0)
            }
            options = parsed
        } catch {
            StandardError.write("error: \(error)\n\(RuntimeOptions.usage)\n")
            exit(ExitCode.usage)
        }
        // The manager is the app's: created in this process it answers as in an extension (R13).
        ExtensionDiagnostics.isExtensionProcess.store(true, ordering: .relaxed)
        // Before any provider code runs: `Bundle.main` must find the provider's Info.plist.
        ProviderBundleStart.ensure()
        AppGroup.use(options.appGroup)
        // Before any provider code runs: `UserDefaults(suiteName: "group.…")` must land in the App Group.
        AppGroupPreferences.ensure(in: options.appGroup)
        guard options.domain == DefaultContactProviderDomain.identifier else {
            let error = ContactProviderError.domainNotRegistered
            StandardError.write("error: \(error.errorDescription!) \(error.failureReason!)\n")
            exit(ExitCode.failure)
        }
        let launch = ExtensionLaunch(type: Self.self, options: options)
        Task.detached { exit(await launch.serve()) }
        dispatchMain()
    }
}

/// What the main thread hands to the task that serves: the extension's type and the parsed options,
/// written once before the task starts and only read by it.
private struct ExtensionLaunch: @unchecked Sendable {
    let type: any ContactProviderExtension.Type
    let options: RuntimeOptions

    /// Serves the system's requests until the provider exits; returns the exit code.
    func serve() async -> Int32 {
        do {
            let runtime = try ProviderRuntime(options: options)
            return await runtime.run {
                let session = ExtensionSession(type, domain: DefaultContactProviderDomain())
                ExtensionLifetime.keep(session)
                return session
            }
        } catch {
            StandardError.write("error: \(error)\n")
            return ExitCode.failure
        }
    }
}

/// Keeps the extension object and its enumerator alive until the process exits.
///
/// On iOS the system ends an extension by ending its process: its objects are never deallocated, so
/// a `deinit` that saves a model object's in-memory list never runs at the end (and never undoes the
/// app's newer writes to the same file). Releasing the session when the runtime returns would run
/// every such `deinit` just before `exit`; holding it here makes the end a device's.
enum ExtensionLifetime {
    nonisolated(unsafe) private static var kept: [AnyObject] = []

    /// Holds `object` until the process exits (called once, on the runtime's task, before serving).
    static func keep(_ object: AnyObject) {
        kept.append(object)
    }
}
