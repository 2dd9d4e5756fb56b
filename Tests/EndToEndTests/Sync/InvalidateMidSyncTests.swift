import ContactProviderSystem
import Foundation
import Glibc
import TestSupport
import Testing

/// `contacts-host invalidate` during a long content sync (R10, R43): the provider is held inside a
/// page by the kit's mid-call pause (a signal, not a sleep), the invalidate doorbell is delivered,
/// and only then does the page go on.
@Suite("End to end: invalidate in the middle of a long sync")
struct InvalidateMidSyncTests {
    @Test(
        "invalidate during a 20-page content sync ends it after the page in flight; whole pages stay, the next signal resumes and converges"
    )
    func invalidateDuringLongContentSync() throws {
        try withTemporaryAppGroup { group in
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            try host(["enable", "--extension", BuiltProducts.path("demo-provider"), "--page-size", "2"], in: group)
            try host(["import", try makeImportFile(group, count: 40)], in: group)
            // Three pages committed one at a time (step mode), so the sync below starts mid-enumeration.
            for _ in 0..<3 { try host(["step"], in: group) }
            #expect(try systemContacts(group).count == 6)

            let report = try invalidateInsideNextCall(group, paths)
            // It ended after the page in flight, not after the other 16 pages.
            #expect(report["pages"] as? Int == 1, "\(report)")
            #expect(report["systemCount"] as? Int == 8, "\(report)")

            // What the system committed is whole pages, each contact exactly as in the app.
            let committed = ContactsDifference(
                app: try contactsByID(try host(["list", "--json"], in: group)), system: try systemContacts(group))
            #expect(committed.fields.isEmpty && committed.onlyInSystem.isEmpty, "\(committed)")
            #expect(committed.onlyInApp.count == 32, "\(committed)")

            // The next signal relaunches the provider, resumes at page 5 and converges.
            let resumed = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(resumed["enumeration"] as? String == "content")
            #expect(resumed["pages"] as? Int == 16, "\(resumed)")
            #expect(resumed["error"] == nil, "\(resumed)")
            try expectSystemMatchesApp(group, count: 40)
            try stopProvider(group)
        }
    }

    @Test(
        "invalidate during a 20-batch change sync ends it after the batch in flight; the next signal resumes from its anchor"
    )
    func invalidateDuringLongChangeSync() throws {
        try withTemporaryAppGroup { group in
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            try host(["enable", "--extension", BuiltProducts.path("demo-provider"), "--batch-size", "2"], in: group)
            try host(["import", try makeImportFile(group, count: 10)], in: group)
            try host(["signal", "--wait"], in: group)
            try host(["import", try makeImportFile(group, count: 40, prefix: "more")], in: group)
            for _ in 0..<3 { try host(["step"], in: group) }
            #expect(try systemContacts(group).count == 16)

            let report = try invalidateInsideNextCall(group, paths)
            #expect(report["enumeration"] as? String == "changes", "\(report)")
            #expect(report["batches"] as? Int == 1, "ended after the batch in flight, not after 16 more: \(report)")
            #expect(report["systemCount"] as? Int == 18, "\(report)")
            let committed = ContactsDifference(
                app: try contactsByID(try host(["list", "--json"], in: group)), system: try systemContacts(group))
            #expect(
                committed.fields.isEmpty && committed.onlyInSystem.isEmpty && committed.onlyInApp.count == 32,
                "\(committed)")

            let resumed = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(resumed["enumeration"] as? String == "changes")
            #expect(resumed["batches"] as? Int == 16, "\(resumed)")
            try expectSystemMatchesApp(group, count: 50)
            try stopProvider(group)
        }
    }

    @Test("A signal rung during the sync, before invalidate, gets the interrupted sync's answer, not a new sync")
    func signalDuringSyncThenInvalidate() throws {
        try withTemporaryAppGroup { group in
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            try host(["enable", "--extension", BuiltProducts.path("demo-provider"), "--page-size", "2"], in: group)
            try host(["import", try makeImportFile(group, count: 40)], in: group)
            try host(["step"], in: group)

            let lateOutput = group.path + "/late-signal.out"
            let report = try invalidateInsideNextCall(group, paths, lateSignalOutput: lateOutput)
            #expect(report["pages"] as? Int == 1, "\(report)")
            let late = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: lateOutput)))
                    as? [String: Any])
            #expect((late["error"] as? [String: Any])?["code"] as? String == "extensionInvalidated", "\(late)")
            #expect(late["pages"] as? Int == 1 && late["systemCount"] as? Int == 4, "no second sync ran: \(late)")
            #expect(try systemContacts(group).count == 4)
            try host(["signal", "--wait"], in: group)
            try expectSystemMatchesApp(group, count: 40)
            try stopProvider(group)
        }
    }

    /// Holds the provider inside its next item-carrying observer call (the kit's mid-call pause),
    /// runs `contacts-host invalidate`, lets the call go on once the doorbell is in the request
    /// FIFO, and returns the report of the interrupted `signal --wait --json`.
    ///
    /// With `lateSignalOutput`, a second `signal --wait --json` rings (its doorbell in the FIFO)
    /// before the invalidate; its report is written there.
    private func invalidateInsideNextCall(
        _ group: TemporaryAppGroup, _ paths: DomainPaths, lateSignalOutput: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String: Any] {
        let pause = try MidCallPause.Armed(MidCallPause(runDirectory: paths.runDirectory))
        let signalOutput = group.path + "/signal.out"
        let signal = try SpawnedProcess(
            [BuiltProducts.path("contacts-host"), "signal", "--wait", "--json"], environment: group.environment,
            stdout: signalOutput, stderr: group.path + "/signal.err")
        defer { signal.kill() }
        try #require(
            pause.waitUntilPaused(timeoutSeconds: 60), "the provider never paused", sourceLocation: sourceLocation)

        var lateSignal: SpawnedProcess?
        defer { lateSignal?.kill() }
        if let lateSignalOutput {
            lateSignal = try SpawnedProcess(
                [BuiltProducts.path("contacts-host"), "signal", "--wait", "--json"], environment: group.environment,
                stdout: lateSignalOutput)
            try #require(
                bytesArrive(at: paths.requests, moreThan: 0, within: 60),
                "the second signal never reached the request FIFO",
                sourceLocation: sourceLocation)
        }
        let waitingBefore = bytesWaiting(at: paths.requests)
        let invalidateErrors = group.path + "/invalidate.err"
        let invalidate = try SpawnedProcess(
            [BuiltProducts.path("contacts-host"), "invalidate"], environment: group.environment,
            stderr: invalidateErrors)
        defer { invalidate.kill() }
        try #require(
            bytesArrive(at: paths.requests, moreThan: waitingBefore, within: 60),
            "the invalidate doorbell never reached the request FIFO",
            sourceLocation: sourceLocation)
        pause.resume()

        #expect(
            invalidate.exitCode == 0, "\((try? String(contentsOfFile: invalidateErrors, encoding: .utf8)) ?? "")",
            sourceLocation: sourceLocation)
        #expect(signal.exitCode == 1, "the interrupted sync reports a failure", sourceLocation: sourceLocation)
        if let lateSignal {
            #expect(
                lateSignal.exitCode == 1, "the signal rung during the sync gets its failure",
                sourceLocation: sourceLocation)
        }
        #expect(group.providerPID() == nil, "the provider exited after invalidate()", sourceLocation: sourceLocation)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: signalOutput)))
                as? [String: Any],
            sourceLocation: sourceLocation)
        let error = try #require(report["error"] as? [String: Any], "\(report)", sourceLocation: sourceLocation)
        #expect(error["code"] as? String == "extensionInvalidated", "\(report)", sourceLocation: sourceLocation)
        return report
    }

    private func systemContacts(_ group: TemporaryAppGroup) throws -> [String: String] {
        try contactsByID(try host(["system", "list", "--json"], in: group))
    }

    /// Bytes waiting in the provider's request FIFO (FIONREAD does not consume them).
    private func bytesWaiting(at path: String) -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var waiting: Int32 = 0
        return ioctl(fd, UInt(FIONREAD), &waiting) == 0 ? waiting : 0
    }

    /// Whether more than `count` bytes wait in the request FIFO within `seconds`.
    ///
    /// A FIFO write raises no event another reader can wait on without taking the bytes, so this
    /// looks every millisecond; it returns as soon as the doorbell is there.
    private func bytesArrive(at path: String, moreThan count: Int32, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if bytesWaiting(at: path) > count { return true }
            usleep(1000)
        }
        return false
    }
}
