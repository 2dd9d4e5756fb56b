import AppGroupStore
import CommandLineToolkit
import Foundation
import Glibc

/// Puts the provider's `UserDefaults` suites inside the App Group, as on iOS.
///
/// On iOS, `UserDefaults(suiteName: "group.…")` lives in the App Group container, so the app and
/// its extension share it and it survives the extension's restarts. On Linux, Foundation keeps
/// every suite in `$XDG_CONFIG_HOME/<suite>.plist` and reads `XDG_CONFIG_HOME` once, before `main`
/// (`setenv` later is ignored; measured). The `PreferencesLocation` C module holds the buffer
/// Foundation read it from, so the runtime rewrites it in place here, in the process that started:
/// a provider run under gdb or lldb is the one that serves (it used to re-execute itself, which
/// debuggers stop at or lose; issue 24). Only if that module could not take part (Foundation linked
/// in a way that bypassed its `getenv`) does the provider re-execute itself once, as before.
enum AppGroupPreferences {

    /// Set in the re-executed process, so a failed attempt can never loop.
    static let reexecMarker = "CONTACT_PROVIDER_PREFERENCES_REEXEC"

    /// Returns when user defaults will live in `group`. If the location cannot be moved in place,
    /// replaces this process with itself, started with the right environment; if that fails too,
    /// logs why and carries on (the provider still syncs; only its defaults stay outside the App Group).
    static func ensure(in group: AppGroup) {
        let environment = ProcessInfo.processInfo.environment
        let wanted = group.preferencesDirectory
        guard environment[AppGroup.preferencesEnvironmentVariable] != wanted else { return }
        if wanted.withCString({ setPreferencesLocation($0) }) == 0 { return }
        guard environment[reexecMarker] == nil else {
            warn(
                "the re-executed provider still has \(AppGroup.preferencesEnvironmentVariable)="
                    + "\(environment[AppGroup.preferencesEnvironmentVariable] ?? "") instead of \(wanted)")
            return
        }
        var updated = group.environmentForPreferences(environment)
        updated[reexecMarker] = "1"
        let code = ProcessSpawn.exec("/proc/self/exe", arguments: CommandLine.arguments, environment: updated)
        // Only reached when exec failed.
        let reason = String(cString: strerror(code))
        warn("could not restart with \(AppGroup.preferencesEnvironmentVariable)=\(wanted) (\(reason))")
    }

    /// Writes every `UserDefaults` suite's pending changes to disk, whatever its name.
    ///
    /// On iOS every `set` reaches cfprefsd and is persisted without `synchronize()`; Linux Foundation
    /// writes a suite only when `synchronize()` is called on it, and a provider does not know it should
    /// (real ones do not). The runtime calls this at the points where a device would have persisted
    /// them by then (after each commit, each probe, before exit). Foundation's own
    /// `CFPreferencesFlushCaches` synchronizes every domain it has loaded, suites created by any
    /// `UserDefaults(suiteName:)` instance included; it is exported by Foundation but not declared to
    /// Swift, so it is looked up once by name. Where it is missing, each suite on disk and the
    /// standard defaults are synchronized instead.
    static func flushAll() {
        if let flush = flushCaches {
            flush()
            return
        }
        UserDefaults.standard.synchronize()
        let directory = ProcessInfo.processInfo.environment[AppGroup.preferencesEnvironmentVariable] ?? ""
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where name.hasSuffix(".plist") {
            UserDefaults(suiteName: String(name.dropLast(".plist".count)))?.synchronize()
        }
    }

    /// `CFPreferencesFlushCaches` from the loaded Foundation, or nil.
    private static let flushCaches: (@convention(c) () -> Void)? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "CFPreferencesFlushCaches") else {
            return nil
        }
        return unsafeBitCast(symbol, to: (@convention(c) () -> Void).self)
    }()

    private static func warn(_ message: String) {
        FileHandle.standardError.write(
            Data("warning: \(message); UserDefaults suites will not be stored in the App Group\n".utf8))
    }
}

/// `preferences_location_set` from the `PreferencesLocation` C target, declared here rather than
/// imported: a Clang module imported by `ContactProvider` (even `internal`) becomes a module every
/// client must find when it type-checks against `ContactProvider.swiftmodule`, and a provider's
/// sources must compile with `import ContactProvider` alone, as with Apple's SDK. The target stays
/// a dependency, so its object (with the `getenv` that matters) is linked into every provider.
@_silgen_name("preferences_location_set")
private func setPreferencesLocation(_ directory: UnsafePointer<CChar>) -> Int32
