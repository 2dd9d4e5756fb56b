import AppGroupStore
import CommandLineToolkit
import Foundation
import Glibc

/// The check `--extension PATH` gets before anything is registered or run: a regular executable
/// file. `access(X_OK)` alone accepts a folder (search permission), so `--extension MyApp.xcodeproj`
/// was registered and failed at the first launch with "Permission denied".
package enum ExecutableCheck {
    /// Throws a one-line failure unless `path` (as the user gave it: `given`) is an executable file.
    package static func require(_ path: String, given: String, option: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw CommandFailure("\(option) \(given): no such file")
        }
        if status.st_mode & S_IFMT == S_IFDIR {
            if given.hasSuffix(".xcodeproj") || given.hasSuffix(".xcodeproj/") {
                throw CommandFailure(
                    "\(option) \(given): an Xcode project, not an executable; use --xcode-project \(given) to build its extension here"
                )
            }
            throw CommandFailure("\(option) \(given): a folder, not an executable file")
        }
        guard status.st_mode & S_IFMT == S_IFREG, access(path, X_OK) == 0 else {
            throw CommandFailure("\(option) \(given): not an executable file")
        }
        do {
            try TrustedExecutable.check(path)
        } catch {
            throw CommandFailure("\(option) \(given): \(error)")
        }
    }
}
