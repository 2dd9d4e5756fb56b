import CommandLineToolkit
import Foundation
import XcodeProjectReader

/// `contacts-host package --xcode-project PATH --output DIR`: the SwiftPM package that builds the
/// project's extension here, for the user's own `swift build` and `swift test`.
enum PackageCommand {
    static let outputOption = Option<String>(
        "--output", value: "DIR", required: true,
        help: "The folder to write the package in (created; never inside the .xcodeproj).")
    static let projectOption = Option<String>(
        "--xcode-project", value: "PATH", required: true,
        help:
            "The Xcode project (NAME.xcodeproj, or the folder holding only it) whose Contact Provider extension to package."
    )
    static let buildFlag = Flag("--build", help: "Also run swift build there and print the executable's path.")
    static let jsonFlag = JSONOutput.report(
        "{\"package\" (DIR/Package.swift), \"product\", \"swiftFiles\": N (linked)}; with --build {\"executable\"}")

    /// What `package --json` prints without `--build`.
    struct PackageSummary: Encodable {
        var package: String
        var product: String
        var swiftFiles: Int
    }

    /// What `package --build --json` prints.
    struct BuildSummary: Encodable {
        var executable: String
    }

    static let command = Command(
        ["package"], summary: "Write a SwiftPM package that builds an Xcode project's Contact Provider extension.",
        discussion: """
            Reads the .xcodeproj as Xcode does (groups, synchronized folders and their exceptions, Debug build
            settings, entitlements, Swift packages) and writes DIR/Package.swift and DIR/Sources/TARGET, a folder of
            relative links to the project's own Swift files: nothing is copied, nothing is written into the project,
            and no path is absolute (the folder can be committed beside the project). Run it
            again after the Xcode project gains or loses files. Tests you put in DIR/Tests/TARGETTests are kept and
            become a test target with the conformance library. Files that cannot build on Linux are listed on stderr.
            """,
        options: [projectOption, XcodeProjectBuild.targetOption, outputOption, buildFlag, jsonFlag],
        examples: [
            "contacts-host package --xcode-project MyApp.xcodeproj --output ../MyAppOnLinux",
            "contacts-host package --xcode-project MyApp.xcodeproj --target MyProvider --output /tmp/p --build",
        ],
        environment: [XcodeProjectBuild.simulatorVariable],
        exitCodes: [
            ExitCodeHelp(0, "the package was written (and, with --build, built)"),
            ExitCodeHelp(1, "the project could not be read, or the build failed (nothing was written on a read error)"),
            ExitCodeHelp(2, "usage error: nothing was run"),
        ],
        run: { arguments, context in
            guard let path = try arguments.value(projectOption), let output = try arguments.value(outputOption) else {
                throw UsageError("missing option '--xcode-project PATH' or '--output DIR'")
            }
            let target = try XcodeProjectBuild.read(
                path, target: try arguments.value(XcodeProjectBuild.targetOption), output: context.output)
            let directory =
                ((output.hasPrefix("/") ? output : FileManager.default.currentDirectoryPath + "/" + output)
                as NSString).standardizingPath
            let json = arguments.has(jsonFlag)
            if arguments.has(buildFlag) {
                let executable = try XcodeProjectBuild.build(
                    target, in: directory, output: context.output, committable: true)
                context.output.out(json ? try ContactJSON.report(BuildSummary(executable: executable)) : executable)
            } else {
                // Relative paths: a package the user can commit beside the project (the simulator's
                // checkout at the same place relative to it, as in the CI recipe).
                let package = GeneratedPackage(
                    target: target, simulatorRoot: try XcodeProjectBuild.simulatorRoot(), relativeTo: directory)
                try package.write(to: directory)
                if json {
                    let summary = PackageSummary(
                        package: directory + "/Package.swift", product: package.productName,
                        swiftFiles: target.sources.swiftFiles.count)
                    context.output.out(try ContactJSON.report(summary))
                    return ExitCode.success
                }
                context.output.out(
                    "wrote \(directory)/Package.swift (target \(package.productName), \(target.sources.swiftFiles.count) Swift files linked)"
                )
            }
            return ExitCode.success
        })
}
