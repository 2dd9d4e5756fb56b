import ContactsHostConformance
import ContactsHostKit
import Foundation
import TestSupport
import Testing

/// `contacts-host` links no FoundationNetworking (libcurl and 30 libraries behind it, 7 ms of every
/// command's start-up: docs/startup-profile.md); the two commands that need it run in
/// `contacts-host-conformance`, and the user sees one tool.
@Suite("contacts-host starts without networking and forwards the kit's commands")
struct ForwardedCommandsCLITests {
    /// The shared libraries `executable` loads, as the dynamic loader resolves them.
    private func sharedLibraries(_ executable: String) throws -> String {
        let result = try ProcessRunner.run("/usr/bin/ldd", [executable])
        #expect(result.exitCode == 0, "\(result)")
        return result.stdout
    }

    @Test("contacts-host loads neither FoundationNetworking nor libcurl; contacts-host-conformance does")
    func hostLinksNoNetworking() throws {
        let host = try sharedLibraries(BuiltProducts.path("contacts-host"))
        #expect(host.contains("libFoundation.so"), "\(host)")
        #expect(!host.contains("libFoundationNetworking"), "\(host)")
        #expect(!host.contains("libcurl"), "\(host)")
        let kit = try sharedLibraries(BuiltProducts.path(ForwardedCommands.executable))
        #expect(kit.contains("libFoundationNetworking"), "\(kit)")
    }

    @Test(
        "through the binary, forwarded commands, their help and the completion scripts print what the whole tool prints",
        arguments: [
            ["conformance", "--list-rules"], ["help", "conformance"], ["conformance", "--help"],
            ["demo", "carddav", "--help"], ["--generate-completion-script", "zsh"],
        ])
    func forwardedOutputMatches(_ arguments: [String]) async throws {
        try await withTemporaryAppGroup { group in
            let binary = try HostRunner.process.run(arguments, in: group)
            let inProcess = await HostRunner.inProcess.run(arguments, in: group)
            #expect(binary.exitCode == 0, "\(binary)")
            #expect(binary.stdout == inProcess.stdout)
            #expect(binary.stderr == inProcess.stderr)
        }
    }

    @Test("a forwarded command's usage error and exit status come through unchanged")
    func usageErrorComesThrough() throws {
        try withTemporaryAppGroup { group in
            let result = try HostRunner.process.run(["conformance", "--rules", "Z9", "--list-rules"], in: group)
            #expect(result.exitCode == 2, "\(result)")
            #expect(result.stderr.contains("unknown rule 'Z9'"), "\(result)")
        }
    }

    @Test("contacts-host alone (installed without its sibling) says what is missing and how to build it")
    func missingSibling() throws {
        try withTemporaryAppGroup { group in
            let lone = group.path + "/bin/contacts-host"
            try FileManager.default.createDirectory(atPath: group.path + "/bin", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: BuiltProducts.path("contacts-host"), toPath: lone)
            let result = try ProcessRunner.run(lone, ["conformance", "--list-rules"], environment: group.environment)
            #expect(result.exitCode == 1, "\(result)")
            #expect(
                result.stderr.contains(
                    "runs in contacts-host-conformance, which is not in \(group.path)/bin: build it with 'swift build --product contacts-host-conformance'"
                ), "\(result)")
            let added = try ProcessRunner.run(lone, ["add", "--given-name", "Ada"], environment: group.environment)
            #expect(added.exitCode == 0, "every other command runs: \(added)")
        }
    }
}
