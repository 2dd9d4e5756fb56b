import Foundation

/// The SwiftPM package a `contacts-host` built from this project runs from, and building one of its
/// products: how the host builds, on first use, what `swift run contacts-host` does not
/// (`demo-provider` for the demo, `contacts-host-conformance` for the forwarded commands), and
/// where the Xcode import finds the simulator package.
package enum PackageBuild {
    /// A package folder and the configuration (`debug`, `release`) an executable was built in.
    package typealias Tree = (root: String, configuration: String)

    /// This process's executable.
    package static var runningExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The folder of the package whose `.build` holds `executable` (it has a `Package.swift`), or nil.
    package static func packageRoot(of executable: String) -> String? {
        guard let range = executable.range(of: "/.build/") else { return nil }
        let root = String(executable[..<range.lowerBound])
        return FileManager.default.fileExists(atPath: root + "/Package.swift") ? root : nil
    }

    /// The package and configuration of an executable in `<root>/.build/<triple>/<debug|release>/`,
    /// or nil for one installed elsewhere (that one is used as it is).
    static func tree(of executable: String) -> Tree? {
        let configuration = ((executable as NSString).deletingLastPathComponent as NSString).lastPathComponent
        guard configuration == "debug" || configuration == "release", let root = packageRoot(of: executable) else {
            return nil
        }
        return (root, configuration)
    }

    /// Runs `swift build --product product` in `tree`, its output on standard error (standard output
    /// stays the command's, so `--json` remains parseable); returns its exit status.
    static func build(_ product: String, in tree: Tree) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swift", "build", "--package-path", tree.root, "-c", tree.configuration, "--product", product,
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.standardError
        process.standardError = FileHandle.standardError
        do { try process.run() } catch {
            throw CommandFailure("cannot run swift build for \(product): \(error.localizedDescription)")
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
