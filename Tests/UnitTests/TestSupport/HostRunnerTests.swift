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
        await withTemporaryAppGroup { group in
            await HostRunner.inProcess.succeed(["generate", "3", "--seed", "7"], in: group)
            outputs.append(await HostRunner.inProcess.succeed(["list", "--json"], in: group))
            failures.append(await HostRunner.inProcess.run(["get", "no-such-contact"], in: group))
        }
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["generate", "3", "--seed", "7"], in: group)
            outputs.append(try HostRunner.process.succeed(["list", "--json"], in: group))
            failures.append(try HostRunner.process.run(["get", "no-such-contact"], in: group))
        }
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0].contains("\"identifier\""))
        #expect(failures.map(\.exitCode) == [1, 1])
        #expect(failures[0].stderr == failures[1].stderr, "\(failures)")
    }
}
