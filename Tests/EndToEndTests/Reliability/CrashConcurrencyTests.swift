import Foundation
import Glibc
import TestSupport
import Testing

/// Many hosts at once, and a single consumer per domain.
@Suite("Reliability: concurrency")
struct CrashConcurrencyTests {
    @Test("4 hosts adding 250 contacts each while signals run: 1,000 in the database and the system store")
    func concurrentHosts() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            let perHost = TestScale.isFullSize ? 250 : 60
            let results = ResultsBox()
            let writers = (0..<4).map { writer in
                Thread {
                    for index in 0..<perHost {
                        results.append(
                            Result {
                                try HostRunner.process.run(
                                    ["add", "--id", "w\(writer)-\(index)", "--given-name", "W"], in: group)
                            })
                    }
                }
            }
            let signals = ResultsBox()
            let signaller = Thread {
                for _ in 0..<(TestScale.isFullSize ? 40 : 10) {
                    signals.append(Result { try HostRunner.process.run(["signal", "--wait"], in: group) })
                }
            }
            for item in writers { item.start() }
            signaller.start()
            results.wait(for: 4 * perHost)
            signals.wait(for: TestScale.isFullSize ? 40 : 10)
            for result in results.all {
                let output = try result.get()
                #expect(output.exitCode == 0, "\(output)")
            }
            for result in signals.all {
                let output = try result.get()
                #expect(output.exitCode == 0, "\(output)")
            }
            try host(["signal", "--wait"], in: group)
            try expectSystemMatchesApp(group, count: 4 * perHost)
            try stopProvider(group)
            print(
                "concurrency: 4 hosts × \(perHost) adds with concurrent signals; \(4 * perHost) contacts in the database and the system store"
            )
        }
    }

    @Test("a second provider for the same domain refuses to run while the first serves")
    func singleConsumer() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            try host(["add", "--given-name", "Only"], in: group)
            try host(["signal", "--wait"], in: group)
            let first = try #require(group.providerPID())
            let second = try ProcessRunner.run(
                BuiltProducts.path("demo-provider"), ["--app-group", group.path], environment: group.environment)
            #expect(second.exitCode == 3, "\(second)")
            #expect(second.stderr.contains("already running"))
            #expect(group.providerPID() == first, "the first provider keeps serving")
            try host(["signal", "--wait"], in: group)
            try stopProvider(group)
        }
    }
}
