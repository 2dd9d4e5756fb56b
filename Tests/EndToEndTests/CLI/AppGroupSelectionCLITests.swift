import AppGroupStore
import Foundation
import TestSupport
import Testing

@Suite("contacts-host: choosing the App Group with --app-group and CONTACT_PROVIDER_APP_GROUP")
struct AppGroupSelectionCLITests {
    private func run(_ arguments: [String], environment: [String: String], in directory: String) throws -> ProcessResult
    {
        try ProcessRunner.run(
            BuiltProducts.path("contacts-host"), arguments, environment: environment, currentDirectory: directory)
    }

    private func workingDirectory(_ group: TemporaryAppGroup) throws -> String {
        let path = group.path + "/cwd"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    @Test("The environment variable alone selects the App Group")
    func environmentVariable() throws {
        try withTemporaryAppGroup { group in
            let cwd = try workingDirectory(group)
            let result = try run(
                ["add", "--id", "env", "--given-name", "Env"], environment: group.environment, in: cwd)
            #expect(result.exitCode == 0, "\(result)")
            #expect(try AppDatabase(appGroup: group.appGroup).get("env")?.givenName == "Env")
            #expect(!FileManager.default.fileExists(atPath: cwd + "/AppGroup"))
        }
    }

    @Test("--app-group DIR and --app-group=DIR work without the variable, anywhere on the command line")
    func flagAlone() throws {
        try withTemporaryAppGroup { group in
            let cwd = try workingDirectory(group)
            let target = group.path + "/flagged"
            let environment = CLIHarness.environmentWithoutAppGroup
            var result = try run(
                ["--app-group", target, "add", "--id", "f1", "--given-name", "F"], environment: environment, in: cwd)
            #expect(result.exitCode == 0, "\(result)")
            result = try run(
                ["add", "--id", "f2", "--given-name", "G", "--app-group=\(target)"], environment: environment, in: cwd)
            #expect(result.exitCode == 0, "\(result)")
            result = try run(["list", "--app-group", target], environment: environment, in: cwd)
            #expect(result.output == "f1\tF\nf2\tG", "\(result)")
            #expect(try AppDatabase(appGroup: AppGroup(path: target)).all().map(\.identifier) == ["f1", "f2"])
            #expect(!FileManager.default.fileExists(atPath: cwd + "/AppGroup"))
        }
    }

    @Test("A relative --app-group is resolved against the working directory")
    func relativeFlag() throws {
        try withTemporaryAppGroup { group in
            let cwd = try workingDirectory(group)
            let result = try run(
                ["add", "--app-group", "relative/group", "--id", "r", "--given-name", "R"],
                environment: CLIHarness.environmentWithoutAppGroup, in: cwd)
            #expect(result.exitCode == 0, "\(result)")
            #expect(try AppDatabase(appGroup: AppGroup(path: cwd + "/relative/group")).get("r") != nil)
        }
    }

    @Test("The flag wins over the environment variable")
    func flagWins() throws {
        try withTemporaryAppGroups { environmentGroup, flagGroup in
            let cwd = try workingDirectory(environmentGroup)
            let result = try run(
                ["--app-group", flagGroup.path, "add", "--id", "both", "--given-name", "Both"],
                environment: environmentGroup.environment, in: cwd)
            #expect(result.exitCode == 0, "\(result)")
            #expect(try AppDatabase(appGroup: flagGroup.appGroup).get("both") != nil)
            #expect(try AppDatabase(appGroup: environmentGroup.appGroup).all().isEmpty)
            #expect(!FileManager.default.fileExists(atPath: environmentGroup.appGroup.contactsDirectory))
        }
    }

    @Test(
        "Without flag or variable, the per-user default under $XDG_DATA_HOME (else ~/.local/share) is used, wherever the command runs"
    )
    func defaultDirectory() throws {
        try withTemporaryAppGroup { group in
            let cwd = try workingDirectory(group)
            let other = group.path + "/elsewhere"
            try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
            var environment = CLIHarness.environmentWithoutAppGroup
            environment["HOME"] = group.path + "/home"
            environment["XDG_DATA_HOME"] = nil
            var result = try run(["add", "--id", "d", "--given-name", "D"], environment: environment, in: cwd)
            #expect(result.exitCode == 0, "\(result)")
            let homeDefault = AppGroup(path: group.path + "/home/.local/share/contact-provider-simulator/AppGroup")
            // It is outside the working directory: the command that created it says where, once.
            #expect(
                result.stderr
                    == "note: created the App Group \(homeDefault.path) (the per-user default; --app-group DIR or $CONTACT_PROVIDER_APP_GROUP choose another)\n",
                "\(result)")
            // Another working directory sees the same App Group.
            result = try run(["list"], environment: environment, in: other)
            #expect(result.output == "d\tD", "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            #expect(try AppDatabase(appGroup: homeDefault).get("d") != nil)
            #expect(!FileManager.default.fileExists(atPath: cwd + "/AppGroup"))

            environment["XDG_DATA_HOME"] = group.path + "/data"
            result = try run(["add", "--id", "x", "--given-name", "X"], environment: environment, in: cwd)
            #expect(result.exitCode == 0, "\(result)")
            let xdgDefault = AppGroup(path: group.path + "/data/contact-provider-simulator/AppGroup")
            #expect(try AppDatabase(appGroup: xdgDefault).all().map(\.identifier) == ["x"])
        }
    }

    @Test(
        "A new App Group named by --app-group or the variable (a typo, most likely) is announced on stderr when created; reading commands create none"
    )
    func createdNoteForAnyNewAppGroup() throws {
        try withTemporaryAppGroup { group in
            let cwd = try workingDirectory(group)
            let typo = group.path + "/AppGrup"
            var environment = CLIHarness.environmentWithoutAppGroup
            // Reading commands leave a missing App Group missing, and say nothing.
            for reading in [["list"], ["export"], ["status"], ["system", "list"]] {
                let result = try run(["--app-group", typo] + reading, environment: environment, in: cwd)
                #expect(result.exitCode == 0, "\(result)")
                #expect(result.stderr.isEmpty, "\(result)")
                #expect(!FileManager.default.fileExists(atPath: typo), "\(reading) created \(typo)")
            }
            var result = try run(
                ["--app-group", typo, "add", "--id", "t", "--given-name", "T"], environment: environment, in: cwd)
            #expect(result.exitCode == 0, "\(result)")
            #expect(
                result.stderr
                    == "note: created the App Group \(typo) (from --app-group; there was none: if you meant an existing one, check the path)\n",
                "\(result)")
            // Once it exists, nothing more is said.
            result = try run(
                ["--app-group", typo, "add", "--id", "u", "--given-name", "U"], environment: environment, in: cwd)
            #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")

            let fromVariable = group.path + "/FromVariable"
            environment[AppGroup.environmentVariable] = fromVariable
            result = try run(["add", "--id", "v", "--given-name", "V"], environment: environment, in: cwd)
            #expect(result.exitCode == 0, "\(result)")
            #expect(
                result.stderr
                    == "note: created the App Group \(fromVariable) (from $CONTACT_PROVIDER_APP_GROUP; there was none: if you meant an existing one, check the path)\n",
                "\(result)")
            #expect(try AppDatabase(appGroup: AppGroup(path: fromVariable)).get("v") != nil)
        }
    }

    @Test("--app-group given twice is a usage error")
    func flagTwice() throws {
        try withTemporaryAppGroup { group in
            let result = try HostRunner.process.run(
                ["--app-group", group.path, "list", "--app-group", group.path], in: group)
            CLIHarness.expectUsageError(result, mentioning: "given more than once")
        }
    }
}
