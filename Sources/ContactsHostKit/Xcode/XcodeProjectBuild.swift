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
        help:
            "An Xcode project (NAME.xcodeproj, or the folder holding only it): build its Contact Provider extension target here first."
    )
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
            // A relative path (as a CI step gives it) is made absolute: the generated package, in
            // another folder, depends on the simulator by this path.
            let absolute =
                configured.hasPrefix("/") ? configured : FileManager.default.currentDirectoryPath + "/" + configured
            let root = (absolute as NSString).standardizingPath
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
    /// `path` is the `.xcodeproj`, or a folder holding exactly one (as `xcodebuild` takes it).
    static func read(_ path: String, target name: String?, output: CommandOutput) throws
        -> ContactProviderTarget
    {
        let project = try XcodeProject(path: try projectBundle(path))
        let target = try ContactProviderTarget(project: project, named: name)
        for file in target.sources.leftOut {
            output.err("warning: \(target.target.name): left out \(file.path): \(file.reason)")
        }
        return target
    }

    /// The `.xcodeproj` that `path` names: itself, or the only one in the folder `path` (a folder with
    /// none, or several, is refused with the ones it has).
    static func projectBundle(_ path: String) throws -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        var isDirectory: ObjCBool = false
        guard !trimmed.hasSuffix(".xcodeproj"),
            FileManager.default.fileExists(atPath: trimmed, isDirectory: &isDirectory), isDirectory.boolValue
        else { return trimmed }
        let projects = ((try? FileManager.default.contentsOfDirectory(atPath: trimmed)) ?? [])
            .filter { $0.hasSuffix(".xcodeproj") }.sorted()
        guard projects.count == 1 else {
            throw CommandFailure(
                projects.isEmpty
                    ? "--xcode-project \(path): no .xcodeproj in this folder; give the project (NAME.xcodeproj) or its folder"
                    : "--xcode-project \(path): \(projects.count) projects in this folder (\(projects.joined(separator: ", "))); give one: --xcode-project \((trimmed as NSString).appendingPathComponent(projects[0]))"
            )
        }
        return (trimmed as NSString).appendingPathComponent(projects[0])
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
    /// overwrite each other's provider). Beside it goes the record of what the build read
    /// (``XcodeBuildRecord``), so a later command rebuilds after an edit. `reason`, when given, is why
    /// this build runs (a changed file), said in the one line that announces it; `committable` writes
    /// the package's paths relative to `directory` (`contacts-host package`).
    static func build(
        _ target: ContactProviderTarget, in directory: String, output: CommandOutput, reason: String? = nil,
        committable: Bool = false
    ) throws -> String {
        let package = GeneratedPackage(
            target: target, simulatorRoot: try simulatorRoot(), relativeTo: committable ? directory : nil)
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
        // The inputs' times before the build starts: a file saved during the build makes the next
        // command build again.
        let record = XcodeBuildRecord(
            project: target.project.bundlePath, sourceRoot: target.project.sourceRoot, target: target.target.name,
            package: directory, inputs: target.inputPaths)
        let what = "\(target.target.name) from \(target.project.bundlePath) (swift build in \(directory))"
        output.err(reason.map { "\($0): rebuilding \(what)…" } ?? "building \(what)…")
        let arguments = [
            "swift", "build", "--package-path", directory, "--scratch-path", scratchPath, "--product",
            package.productName,
        ]
        let result = try run(
            arguments,
            progress: ProgressTicker(
                output: output, prefix: "building \(target.target.name)", phase: "starting swift build"))
        guard result.status == 0 else {
            let diagnostics = BuildDiagnostics(log: result.output, package: package, directory: directory)
            // Every error but the first (which the failure's own line carries), in the project's names.
            for line in diagnostics.errors.dropFirst() { output.err(line) }
            throw CommandFailure(failureMessage(diagnostics, target: target, directory: directory))
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
            } else {
                // No entitlements is no App Group, as on a device: containerURL answers nil (and says why).
                try Data(Self.noEntitlements.utf8).write(to: URL(fileURLWithPath: entitlements))
            }
            try record.write(forExecutable: final)
        } catch {
            throw CommandFailure("cannot copy the built provider \(built) to \(final): \(error)")
        }
        try bundle.write(forExecutable: final)
        return final
    }

    /// The entitlements of a target that has none: an empty property list.
    static let noEntitlements = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict/></plist>

        """

    /// `enable`'s warning for an extension with no App Group entitlement: it builds and enables, and
    /// then every sync delivers nothing, because the provider cannot open the app's shared container.
    static func warnWithoutAppGroup(_ target: ContactProviderTarget, output: CommandOutput) {
        guard target.appGroupIdentifier == nil else { return }
        let why =
            target.entitlementsPath.map { "\($0) lists no com.apple.security.application-groups" }
            ?? "it has no entitlements file, CODE_SIGN_ENTITLEMENTS"
        output.err(
            "warning: \(target.target.name) has no App Group entitlement (\(why)):"
                + " as on a device, its containerURL(forSecurityApplicationGroupIdentifier:) returns nil, so a provider that reads"
                + " the app's store from the App Group sees none and its syncs deliver 0 items (signal --trace shows the provider's"
                + " own line about it); add the App Groups capability to the extension target in Xcode")
    }

    /// Before a command launches the provider at `executable`: when it was built from an Xcode
    /// project and a file of that project changed since (an edit, a file added to a synchronized
    /// folder, a changed setting), rebuilds it in place first, saying so in one line on stderr. A
    /// provider built otherwise costs one failed `open`; an unchanged project, a `stat` per input.
    package static func rebuildIfChanged(executable: String?, output: CommandOutput) throws {
        guard let executable, let record = XcodeBuildRecord.read(forExecutable: executable),
            let changed = record.firstChangedInput()
        else { return }
        let target = try read(record.project, target: record.target, output: output)
        _ = try build(
            target, in: record.package, output: output,
            reason: "\(record.displayPath(changed)) changed since the last build")
    }

    /// One line for a failed build: the compiler's first error (with the project's own paths), or
    /// the package that could not be fetched.
    static func failureMessage(_ diagnostics: BuildDiagnostics, target: ContactProviderTarget, directory: String)
        -> String
    {
        let lines = diagnostics.lines
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
        let error = diagnostics.errors.first ?? lines.first(where: { $0.contains("error:") })
        return
            "building \(target.target.name) failed: \(error ?? lines.last ?? "swift build failed") (package: \(directory))"
    }

    /// Runs `arguments` (through env), returning its exit status and its stdout and stderr together.
    /// Each `[N/M] …` line SwiftPM prints becomes the phase of `progress`, so a first build (a minute
    /// or more: the simulator's modules compile) says how far it is rather than staying silent.
    private static func run(_ arguments: [String], progress: ProgressTicker) throws -> (status: Int32, output: String) {
        defer { progress.stop() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw CommandFailure("cannot run swift build: \(error.localizedDescription)") }
        var data = Data()
        var lineStart = 0
        let reader = pipe.fileHandleForReading
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
            // The last complete line that is a step ("[12/340] Compiling ContactProvider Foo.swift").
            guard let end = data.lastIndex(of: UInt8(ascii: "\n")), end >= lineStart else { continue }
            let text = String(decoding: data[lineStart..<end], as: UTF8.self)
            lineStart = end + 1
            if let step = text.split(separator: "\n").last(where: { $0.hasPrefix("[") }) {
                progress.set(String(step))
            }
        }
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
