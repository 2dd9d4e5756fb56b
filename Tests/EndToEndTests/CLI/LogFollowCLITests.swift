import Foundation
import Glibc
import TestSupport
import Testing

/// `contacts-host log --follow`: a provider's `Logger` lines reach a follower as the system's sync runs.
@Suite("CLI: log --follow shows a launched provider's Logger output")
struct LogFollowCLITests {
    /// The template provider's `Logger(subsystem:category:)` subsystem.
    static let subsystem = "nl.wesleydegroot.contactproviderdemo.provider"

    @Test("log --follow --subsystem prints the provider's line during a real sync, only that subsystem; SIGINT exits 0")
    func followsRealSync() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--extension", BuiltProducts.path("template-provider")], in: group)
            let items = [["identifier": "a", "firstName": "Ada", "lastName": "Lovelace"]]
            try JSONSerialization.data(withJSONObject: items).write(
                to: URL(fileURLWithPath: group.path + "/ContactItems.json"))

            let follower = try WatchProcess(group, arguments: ["log", "--follow", "--subsystem", Self.subsystem])
            defer { follower.stop() }
            var ready = false
            while let line = follower.stderr.nextLine() {
                if line.hasPrefix("following ") {
                    ready = true
                    break
                }
            }
            try #require(ready, "log --follow never said it was following")

            // The test App Group's environment silences Logger; the launched provider inherits the
            // host's environment, so this sync runs with it on.
            var environment = group.environment
            environment["OSLOG_DISABLE"] = nil
            let sync = try HostRunner.process.run(["signal", "--wait"], environment: environment)
            #expect(sync.exitCode == 0, "\(sync)")

            var printed: [String] = []
            while let line = follower.stdout.nextLine() {
                printed.append(line)
                if line.hasSuffix("info: configured for defaultDomain") { break }
            }
            #expect(
                printed.last?.hasSuffix("[\(Self.subsystem):enumerator] info: configured for defaultDomain") == true,
                "the follower printed \(printed)")
            follower.interrupt()
            #expect(follower.process.terminationReason == .exit)
            #expect(follower.process.terminationStatus == 0)
            printed += follower.stdout.remainingLines()
            #expect(printed.allSatisfy { $0.contains(" [\(Self.subsystem):") }, "\(printed)")
            try stopProvider(group)
        }
    }
}
