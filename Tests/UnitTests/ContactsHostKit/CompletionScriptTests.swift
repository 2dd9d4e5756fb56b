import ContactsHostConformance
import ContactsHostKit
import Foundation
import TestSupport
import Testing

/// The path of `shell` on PATH, if installed.
private func installedShell(_ shell: String) -> String? {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    return directories.map { "\($0)/\(shell)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

private let isCI = ProcessInfo.processInfo.environment["CI"] != nil

@Suite("contacts-host --generate-completion-script: bash, zsh and fish scripts from the command table")
struct CompletionScriptTests {
    private func script(_ shell: String) async throws -> String {
        let result = await HostRunner.inProcess.run(["--generate-completion-script", shell])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        return result.stdout
    }

    private func write(_ text: String, _ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "/cps-completion-\(UUID().uuidString)-\(name)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("Every script names every command and option", arguments: CompletionScripts.shells)
    func coversTheTable(shell: String) async throws {
        let text = try await script(shell)
        for command in HostTool.allCommands {
            for word in command.name { #expect(text.contains(word), "\(shell): \(word)") }
            for option in command.options {
                let name = shell == "fish" ? "-l \(option.name.dropFirst(2))" : option.name
                #expect(text.contains(name), "\(shell): \(command.name) \(option.name)")
            }
        }
    }

    @Test(
        "Every script lists the catalog's environment variables with what they do, and no other",
        arguments: CompletionScripts.shells)
    func namesTheEnvironmentCatalog(shell: String) async throws {
        let text = try await script(shell)
        for (name, effect) in HelpFormatter.environmentVariables {
            #expect(
                text.split(separator: "\n").contains { $0.hasPrefix("#   \(name) ") && $0.hasSuffix(effect) },
                "\(shell): \(name) and its effect")
        }
        let named = try Regex(#"\b(?:CONTACT_PROVIDER|CONTACTS_HOST|OSLOG|XDG)_[A-Z_]+"#)
        let mentioned = Set(text.matches(of: named).map { String(text[$0.range]) })
        #expect(mentioned == Set(HelpFormatter.environmentVariables.keys), "\(shell): \(mentioned.sorted())")
    }

    @Test("An unknown shell is a usage error")
    func unknownShell() async {
        let result = await HostRunner.inProcess.run(["--generate-completion-script", "tcsh"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("bash, zsh, fish"))
    }

    @Test("bash -n accepts the bash script")
    func bashSyntax() async throws {
        let bash = try #require(installedShell("bash"), "bash is needed to check the bash script")
        let path = try write(try await script("bash"), "contacts-host.bash")
        defer { unlink(path) }
        let result = try ProcessRunner.run(bash, ["-n", path])
        #expect(result.exitCode == 0, "\(result)")
    }

    @Test(
        "The bash script completes commands, subcommands, options and option values",
        arguments: [
            (["contacts-host", "sig"], "signal"),
            (["contacts-host", "system", "l"], "list"),
            (["contacts-host", "list", "--j"], "--json"),
            (["contacts-host", "--app-group", "/tmp", "signal", "--tr"], "--trace"),
            (["contacts-host", "system", "search", "--em"], "--email"),
            (["contacts-host", "--generate-completion-script", "fi"], "fish"),
        ])
    func bashCompletes(words: [String], expected: String) async throws {
        let bash = try #require(installedShell("bash"), "bash is needed to run the bash script")
        let path = try write(try await script("bash"), "contacts-host.bash")
        defer { unlink(path) }
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program =
            "source '\(path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _contacts_host; printf '%s\\n' \"${COMPREPLY[@]}\""
        let result = try ProcessRunner.run(bash, ["-c", program])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == [expected], "\(result)")
    }

    @Test("zsh -n accepts the zsh script", .enabled(if: installedShell("zsh") != nil || isCI, "zsh is not installed"))
    func zshSyntax() async throws {
        let zsh = try #require(installedShell("zsh"))
        let path = try write(try await script("zsh"), "_contacts-host")
        defer { unlink(path) }
        let result = try ProcessRunner.run(zsh, ["-n", path])
        #expect(result.exitCode == 0, "\(result)")
    }

    @Test(
        "fish -n accepts the fish script", .enabled(if: installedShell("fish") != nil || isCI, "fish is not installed"))
    func fishSyntax() async throws {
        let fish = try #require(installedShell("fish"))
        let path = try write(try await script("fish"), "contacts-host.fish")
        defer { unlink(path) }
        let result = try ProcessRunner.run(fish, ["-n", path])
        #expect(result.exitCode == 0, "\(result)")
    }
}
