import Foundation

/// Paths of the executables `swift build` produced next to the test bundle.
package enum BuiltProducts {
    /// The build products directory (where the test binary runs from).
    package static var directory: String {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var directory = (executable as NSString).deletingLastPathComponent
        // The test binary may live inside an .xctest bundle directory.
        while directory.hasSuffix(".xctest") || directory.contains(".xctest/") {
            directory = (directory as NSString).deletingLastPathComponent
        }
        return directory
    }

    /// The path of the product named `name` (e.g. `contacts-host`, `demo-provider`).
    package static func path(_ name: String) -> String {
        directory + "/" + name
    }
}
