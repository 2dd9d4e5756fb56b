import AppGroupStore
import CommandLineToolkit
import Foundation
import Glibc
import XcodeProjectReader

/// Builds an Xcode project's Contact Provider extension here: reads the project, writes the package
/// that compiles the target's own files (links, in a folder of ours, never in the project), runs
/// `swift build`, and returns the executable to register.
package enum XcodeProjectBuild {
    package static let projectOption = Option<String>(
        "--xcode-project", value: "PATH",
        help: "An Xcode project (NAME.xcodeproj): build its Contact Provider extension target here first.")
    package static let targetOption = Option<String>(
        "--target", value: "NAME", help: "With --xcode-project: the extension target, when there is more than one.")

    /// Where the simulator package is, if not found from this executable's location.
    package static let simulatorVariable = "CONTACT_PROVIDER_SIMULATOR_PATH"
    /// A `swift build --scratch-path` shared by every generated package (tests share one build).
    static let scratchVariable = "CONTACTS_HOST_XCODE_SCRATCH_PATH"

    /// `--xcode-project` and `--extension` name two different providers: refuse both together.
    package static func validate(_ arguments: ParsedArguments, extensionOption: Option<String>) throws {
        if arguments.has(projectOption.name) && arguments.has(extensionOption.name) {
            throw UsageError("--xcode-project and --extension both name the provider; give one")
        }
        if arguments.has(targetOption.name) && !arguments.has(projectOption.name) {
            throw UsageError("--target needs --xcode-project")
        }
    }

    /// The simulator package's folder: `$CONTACT_PROVIDER_SIMULATOR_PATH`, else the package whose
    /// `.build` this executable runs from.
    static func simulatorRoot() throws -> String {
        if let configured = ProcessInfo.processInfo.environment[simulatorVariable], !configured.isEmpty {
            let root = (configured as NSString).standardizingPath
            guard FileManager.default.fileExists(atPath: root + "/Package.swift") else {
                throw CommandFailure("\(simulatorVariable)=\(configured): no Package.swift there")
            }
            return root
        }
        let executable = PackageBuild.runningExecutable
        guard let root = PackageBuild.packageRoot(of: executable) else {
            throw CommandFailure(
                "cannot find the simulator package (\(executable) is not inside a package's .build); set \(simulatorVariable) to its folder"
            )
        }
        return root
    }

    /// Reads the project and its extension target; prints the files left out, by name and reason.
    static func read(_ path: String, target name: String?, output: CommandOutput) throws
        -> ContactProviderTarget
    {
        let target = try ContactProviderTarget(project: try XcodeProject(path: path), named: name)
        for file in target.sources.leftOut {
            output.err("warning: \(target.target.name): left out \(file.path): \(file.reason)")
        }
        return target
    }

    /// The provider `--xcode-project` (and `--target`) names, read and built where `enable` and
    /// `conformance` both build it (so they share one build), or nil without `--xcode-project`.
    package static func buildRequested(_ arguments: ParsedArguments, context: CommandContext) throws
        -> (executable: String, target: ContactProviderTarget)?
    {
        guard let project = try arguments.value(projectOption) else { return nil }
        let target = try read(project, target: try arguments.value(targetOption), output: context.output)
        let executable = try build(
            target, in: packageDirectory(for: target, appGroup: context.appGroup), output: context.output)
        return (executable, target)
    }

    /// The package folder for `target` when the user gives none: inside the App Group's caches,
    /// one per project and target.
    static func packageDirectory(for target: ContactProviderTarget, appGroup: AppGroup) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (target.project.bundlePath + "\n" + target.target.name).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let name = GeneratedPackage(target: target, simulatorRoot: "").productName
        return appGroup.path + "/Library/Caches/contacts-host/xcode/\(name)-\(String(hash, radix: 16))"
    }

    /// Generates the package for `target` in `directory`, builds it, and returns the built
    /// executable's path (a copy inside `directory/bin`, so packages sharing a scratch path never
    /// overwrite each other's provider).
    static func build(_ target: ContactProviderTarget, in directory: String, output: CommandOutput) throws
        -> String
    {
        let package = GeneratedPackage(target: target, simulatorRoot: try simulatorRoot())
        let bundle = try XcodeBundleIdentity(target)
        try package.write(to: directory)
        let scratch = ProcessInfo.processInfo.environment[scratchVariable].flatMap { $0.isEmpty ? nil : $0 }
        let scratchPath = scratch ?? directory + "/.build"
        try FileManager.default.createDirectory(atPath: scratchPath, withIntermediateDirectories: true)
        // One build at a time per scratch path, and the product copied before the next one starts.
        let lock = open(scratchPath + "/.contacts-host.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else {
            throw CommandFailure("cannot lock \(scratchPath)/.contacts-host.lock: \(String(cString: strerror(errno)))")
        }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        try PackageReachability.check(target, scratchPath: scratchPath)
        output.err("building \(target.target.name) from \(target.project.bundlePath) (swift build in \(directory))…")
        let arguments = [
            "swift", "build", "--package-path", directory, "--scratch-path", scratchPath, "--product",
            package.productName,
        ]
        let result = try run(arguments)
        guard result.status == 0 else {
            throw CommandFailure(failureMessage(result.output, target: target, directory: directory))
        }
        let built = scratchPath + "/debug/" + package.productName
        let bin = directory + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let final = bin + "/" + package.productName
        let staging = final + ".new"
        try? FileManager.default.removeItem(atPath: staging)
        do {
            try FileManager.default.copyItem(atPath: built, toPath: staging)
            // rename(2): a provider still running from the previous build keeps its file.
            guard rename(staging, final) == 0 else { throw CommandFailure(String(cString: strerror(errno))) }
            // The target's entitlements travel with the executable, as in an iOS binary's signature:
            // the provider's containerURL answers for its own App Groups only.
            let entitlements = final + ".entitlements"
            try? FileManager.default.removeItem(atPath: entitlements)
            if let source = target.entitlementsPath {
                try FileManager.default.copyItem(atPath: source, toPath: entitlements)
            }
        } catch {
            throw CommandFailure("cannot copy the built provider \(built) to \(final): \(error)")
        }
        try bundle.write(forExecutable: final)
        return final
    }

    /// One line for a failed build: the compiler's first error, or the package that could not be fetched.
    static func failureMessage(_ log: String, target: ContactProviderTarget, directory: String) -> String {
        let lines = log.split(separator: "\n").map(String.init)
        for package in target.packages {
            guard case .remote(let url) = package.source,
                lines.contains(where: {
                    $0.contains(url) || $0.contains(URL(string: url)?.path ?? url)
                        || $0.lowercased().contains("'\(package.identity)'")
                })
                    && lines.contains(where: { $0.contains("error:") })
            else { continue }
            let reason = lines.first(where: { $0.contains("error:") }) ?? ""
            return
                "the Swift package \(url) of target \(target.target.name) cannot be resolved offline (\(reason.trimmingCharacters(in: .whitespaces))); fetch it once with network access: swift package resolve --package-path \(directory)"
        }
        let error = lines.first(where: { $0.contains(": error:") }) ?? lines.first(where: { $0.contains("error:") })
        return
            "building \(target.target.name) failed: \(error ?? lines.last ?? "swift build failed") (package: \(directory))"
    }

    /// Runs `arguments` (through env), returning its exit status and its stdout and stderr together.
    private static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw CommandFailure("cannot run swift build: \(error.localizedDescription)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
