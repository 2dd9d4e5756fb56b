import Foundation
import TestSupport
import Testing

/// The one host runner: a command gives the same result in process and as the built executable.
@Suite("HostRunner: the same command in process and as a process")
struct HostRunnerTests {
    @Test("generate and list agree in both modes; a failing command fails alike")
    func modesAgree() async throws {
        var outputs: [String] = []
        var failures: [ProcessResult] = []
        for runner in [HostRunner.inProcess, HostRunner.process] {
            try await withTemporaryAppGroup { group in
                try await runner.succeed(["generate", "3", "--seed", "7"], in: group)
                outputs.append(try await runner.succeed(["list", "--json"], in: group))
                failures.append(try await runner.run(["get", "no-such-contact"], in: group))
            }
        }
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0].contains("\"identifier\""))
        #expect(failures.map(\.exitCode) == [1, 1])
        #expect(failures[0].stderr == failures[1].stderr, "\(failures)")
    }
}
